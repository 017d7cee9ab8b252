"""emit_policy_tests: write a behavioural test of the policy for each migrated eval.

``tests/<eval>/test_empty_response_policy.py`` scores one real provider-shaped
output of every outcome class with every routed scorer construct of the eval,
built by the eval's own code, and asserts the route the policy gives it: the
verdict, reason and ``empty_outcome``, an unscored sample or the raised error,
and that no judge was asked. An answer must reach the eval's own scorer. The
expected values are the registry's, resolved per task and scorer and written
as ``wrap_router`` writes them into the router call, so the test fails if the
eval's scorer change is reverted. A per-sample polarity eval is tested with
each polarity's label; an eval whose verdicts copy sample metadata checks
that its metrics accept them.

The helpers the tests share, ``tests/utils/empty_response.py``, are generated
from ``empty_migrate.runtime.probe`` with one serialised output per outcome from the
fixture library, so neither drifts from its source; once installed they are
the target's own, under a module docstring of their own (`DOCSTRING`), and a
run keeps a maintainer's edit to them
(`empty_migrate.pipeline.migrate.keep_edited`). Safe: it adds tests and
changes no score; it runs only when the eval's scoring was migrated.
"""

import textwrap
from functools import cache
from typing import Any

from empty_migrate.codemods.kit.base import Codemod, EvalTarget
from empty_migrate.codemods.kit.generated import (
    module_source,
    ruff_clean,
    with_docstring,
)
from empty_migrate.codemods.kit.imports import NeededImports
from empty_migrate.codemods.kit.router_call import value
from empty_migrate.entries.outcome_data import outcome_fixtures, outcome_outputs
from empty_migrate.entries.output_locations import observable
from empty_migrate.entries.schema import Resolved, ScorerEntry, VerdictExpression
from empty_migrate.runtime.policy import Outcome, Route, route_for, route_reason
from empty_migrate.source.syntax import import_bindings, scope_bindings

FIXTURES_PATH = "tests/utils/empty_response.py"
FIXTURES_MODULE = "tests.utils.empty_response"
TEST_NAME = "test_empty_response_policy.py"
DOCSTRING = '''\
"""Score one model output with one scorer, as Inspect runs a scorer, offline.

The helpers of the empty-response policy tests, one per eval in
``tests/<eval>/test_empty_response_policy.py``. ``score_output`` puts a model
output in front of a scorer (built by the eval's own code, ``Construct``) and
reports what it did: the score it returned or the error it raised, and how
many times it asked a judge. The ``assert_*`` helpers check that result
against the route ``inspect_evals.utils.empty_response`` gives the output's
outcome class. ``OUTPUTS`` holds one real provider-shaped output per outcome
class, and ``outcome_output`` builds it.

Every judge is a scripted ``mockllm/model`` that records its prompts
(``recording_judge``), standing in for ``get_model`` in the modules that ask
for one, so nothing reaches the network.

To change a helper or add an output, edit this module in place; the policy
itself is in ``src/inspect_evals/utils/empty_response.py``.
"""
'''
"""The emitted helpers' module docstring: what they do and where to change them."""
ERRORS = {Outcome.OVERFLOW: "ContextOverflowError"}
DEFAULT_ERROR = "EmptyResponseError"


class EmitPolicyTests(Codemod):
    """Write the eval's policy test and the shared fixtures module."""

    def files(self, target: EvalTarget) -> list[str]:  # noqa: D102
        if not any(d.routes for d in target.changed_by):
            return []
        if not target.routed_scorers():
            return []
        return [policy_test_path(target.name), FIXTURES_PATH]

    def transform(self, text: str, path: str, target: EvalTarget) -> str:  # noqa: D102
        if path == FIXTURES_PATH:
            return fixtures_text()
        return policy_test_text(target)


def policy_test_path(eval_name: str) -> str:
    """Where an eval's emitted policy test lives, from the repo root."""
    return f"tests/{eval_name}/{TEST_NAME}"


@cache
def fixtures_text() -> str:
    """The shared fixtures module: ``probe.py`` and one output per outcome class.

    Its module docstring is the target's own (`DOCSTRING`).
    """
    source = with_docstring(module_source("empty_migrate.runtime.probe"), DOCSTRING)
    return ruff_clean(f"{source}\n\n{_outputs_section()}")


def _outputs_section() -> str:
    fixtures, outputs = outcome_fixtures(), outcome_outputs()
    entries = "".join(
        f"    # {fixtures[outcome]}\n    {outcome!r}: {output!r},\n"
        for outcome, output in outputs.items()
    )
    return (
        "OUTPUTS: dict[str, dict[str, Any]] = {\n" + entries + "}\n"
        '"""One real provider-shaped output per outcome class (each comment names '
        'its recording)."""\n\n\n'
        "def outcome_output(outcome: str) -> ModelOutput:\n"
        '    """A real provider-shaped model output of one outcome class."""\n'
        "    return ModelOutput.model_validate(OUTPUTS[outcome])\n"
    )


def policy_test_text(target: EvalTarget) -> str:
    """The eval's policy test module."""
    plan = _Plan(target)
    for scorer in target.routed_scorers():
        plan.add(scorer)
    return plan.text()


class _Plan:
    """The rows of one eval's test tables, and the imports they need."""

    def __init__(self, target: EvalTarget) -> None:
        self.target = target
        self.imports = NeededImports()
        self.module_imports: set[str] = set()
        self.constructs: list[str] = []
        self.rows: dict[str, list[str]] = {k: [] for k in _TABLES}
        self.lost: dict[str, list[str]] = {}
        self.copied: list[str] = []
        self.labels: list[tuple[str, dict[str, Any]]] = []

    def add(self, scorer: ScorerEntry) -> None:
        settings = self.target.settings(scorer)
        constant = self._construct(scorer, settings)
        overrides = {o.outcome: o.route for o in settings.overrides}
        for outcome in Outcome:
            if outcome is Outcome.ANSWERED:
                continue
            if not observable(outcome, settings.output):
                lost = f"{constant}: the output read from {settings.output}"
                self.lost.setdefault(lost, []).append(str(outcome))
                continue
            route = route_for(settings.category, outcome, overrides)
            self._row(scorer, constant, outcome, route, settings)
        self.rows["ANSWERED"].append(_param(constant, id=self._local(scorer)))
        self._metadata(settings)

    def _construct(self, scorer: ScorerEntry, settings: Resolved) -> str:
        local = self._local(scorer)
        imported = scorer.name if local == scorer.name else f"{scorer.name} as {local}"
        self.imports.add(scorer.module, imported)
        self.imports.add(FIXTURES_MODULE, "Construct")
        constant = local.strip("_").upper()
        self.constructs.append(
            f"{constant} = Construct({local}, {scorer.construct!r}, "
            f'"inspect_evals.{self.target.name}", output_at={settings.output!r})\n'
        )
        return constant

    def _local(self, scorer: ScorerEntry) -> str:
        """The construct's name in the test module.

        Prefixed by its module's name where another module of the eval holds a
        construct of the same name (cyberseceval_4 has two choice_with_jaccard).
        """
        same_name = {
            s.module for s in self.target.routed_scorers() if s.name == scorer.name
        }
        if len(same_name) == 1:
            return scorer.name
        return f"{scorer.module.rpartition('.')[2]}_{scorer.name}"

    def _row(
        self,
        scorer: ScorerEntry,
        constant: str,
        outcome: Outcome,
        route: Route,
        settings: Resolved,
    ) -> None:
        name = f"{self._local(scorer)}-{outcome}"
        if route in (Route.NO_ANSWER, Route.REFUSAL_VERDICT):
            verdict = self._verdict(scorer, route, settings)
            reason = route_reason(outcome)
            row = _param(constant, repr(str(outcome)), verdict, repr(reason), id=name)
            self.rows["VERDICTS"].append(row)
        elif route == Route.UNSCORED:
            self.rows["UNSCORED"].append(_param(constant, repr(str(outcome)), id=name))
        elif route == Route.RAISE:
            error = ERRORS.get(outcome, DEFAULT_ERROR)
            row = _param(constant, repr(str(outcome)), repr(error), id=name)
            self.rows["RAISED"].append(row)
        else:
            self.rows["SCORED"].append(_param(constant, repr(str(outcome)), id=name))

    def _verdict(self, scorer: ScorerEntry, route: Route, settings: Resolved) -> str:
        name = (
            "refusal_verdict" if route == Route.REFUSAL_VERDICT else "no_answer_verdict"
        )
        verdict = getattr(settings, name)
        if verdict is None:
            verdict = "N"
        if isinstance(verdict, VerdictExpression):
            if not self._import_free_names(scorer, verdict):
                self.imports.add(FIXTURES_MODULE, "EVALS_OWN_VERDICT")
                return "EVALS_OWN_VERDICT"
        return value(self.imports, verdict)

    def _import_free_names(
        self, scorer: ScorerEntry, verdict: VerdictExpression
    ) -> bool:
        """Import what the expression names; False if it reads the scorer's locals."""
        tree = self.target.workspace.parse(
            self.target.read(self.target.source(scorer.file))
        )
        bound = scope_bindings(tree.body)
        modules = {
            binding.local
            for node in tree.body
            for binding in import_bindings(node)
            if binding.name is None
        }
        free = sorted(verdict.free_names())
        if not set(free) <= set(bound):
            return False
        for name in free:
            if name in modules:
                self.module_imports.add(name)
            else:
                self.imports.add(scorer.module, name)
        return True

    def _metadata(self, settings: Resolved) -> None:
        if isinstance(settings.copy_metadata, list):
            keys = settings.copy_metadata
        else:
            keys = list(settings.probe_metadata) if settings.copy_metadata else []
        self.copied = sorted({*self.copied, *keys})
        found = settings.probe_samples()
        self.labels += [label for label in found if label not in self.labels]

    def text(self) -> str:
        tables = [
            f"{table} = [\n{''.join(rows)}]\n"
            for table, rows in self.rows.items()
            if rows
        ]
        metadata = "".join(
            f"    pytest.param({data!r}, id={polarity!r}),\n"
            for polarity, data in self.labels
        )
        tests = [_TESTS[table] for table, rows in self.rows.items() if rows]
        if self.copied and self.rows["VERDICTS"]:
            tests.append(_METRICS_TEST.format(keys=self.copied))
        for table, rows in self.rows.items():
            if rows:
                self.imports.add(FIXTURES_MODULE, _ASSERTS[table])
        if self.copied and self.rows["VERDICTS"]:
            self.imports.add(FIXTURES_MODULE, "assert_metrics_accept")
        self.imports.add(FIXTURES_MODULE, "outcome_output")
        return "\n".join(
            [
                _DOCSTRING.format(eval=self.target.name),
                "".join(
                    f"import {m}\n" for m in sorted({"pytest", *self.module_imports})
                ),
                _import_lines(self.imports),
                "".join(self.constructs),
                _lost_comment(self.lost),
                f"METADATA = [\n{metadata}]\n",
                *tables,
                *tests,
            ]
        )


def _param(*values: str, id: str) -> str:
    return f"    pytest.param({', '.join(values)}, id={id!r}),\n"


def _import_lines(imports: NeededImports) -> str:
    by_module: dict[str, list[str]] = {}
    for module, name in imports.items:
        by_module.setdefault(module, []).append(name)
    return "".join(
        f"from {module} import {', '.join(names)}\n"
        for module, names in by_module.items()
    )


def _lost_comment(lost: dict[str, list[str]]) -> str:
    return "".join(
        "\n".join(
            textwrap.wrap(
                f"{where} loses the signal of {', '.join(outcomes)}, so those "
                "are not tested here.",
                width=86,
                initial_indent="# ",
                subsequent_indent="# ",
            )
        )
        + "\n"
        for where, outcomes in lost.items()
    )


_DOCSTRING = '''\
"""The empty-response policy for {eval}: every kind of non-answer, as routed.

Generated by empty-migrate from the registry entry of {eval} and the policy
(MIGRATION.md); do not edit. Regenerate with ``empty-migrate --eval {eval}``.
Each routed scorer is built by the eval's own code and scores a real
provider-shaped output of each outcome class; any judge is a recording mock.
"""
'''

_TABLES = ("VERDICTS", "UNSCORED", "RAISED", "SCORED", "ANSWERED")
_ASSERTS = {
    "VERDICTS": "assert_verdict",
    "UNSCORED": "assert_unscored",
    "RAISED": "assert_raised",
    "SCORED": "assert_reaches_scorer",
    "ANSWERED": "assert_reaches_scorer",
}
_TESTS = {
    "VERDICTS": """
@pytest.mark.parametrize("metadata", METADATA)
@pytest.mark.parametrize(("construct", "outcome", "value", "reason"), VERDICTS)
async def test_non_answer_gets_its_verdict_without_the_judge(
    construct, outcome, value, reason, metadata
):
    scored = await construct.score(outcome_output(outcome), metadata)
    assert_verdict(scored, outcome, value, reason)
""",
    "UNSCORED": """
@pytest.mark.parametrize("metadata", METADATA)
@pytest.mark.parametrize(("construct", "outcome"), UNSCORED)
async def test_instrument_failure_is_unscored(construct, outcome, metadata):
    scored = await construct.score(outcome_output(outcome), metadata)
    assert_unscored(scored, outcome)
""",
    "RAISED": """
@pytest.mark.parametrize("metadata", METADATA)
@pytest.mark.parametrize(("construct", "outcome", "error"), RAISED)
async def test_machinery_failure_raises(construct, outcome, error, metadata):
    scored = await construct.score(outcome_output(outcome), metadata)
    assert_raised(scored, outcome, error)
""",
    "SCORED": """
@pytest.mark.parametrize("metadata", METADATA)
@pytest.mark.parametrize(("construct", "outcome"), SCORED)
async def test_non_answer_reaches_the_scorer_tagged(construct, outcome, metadata):
    scored = await construct.score(outcome_output(outcome), metadata)
    assert_reaches_scorer(scored, outcome)
""",
    "ANSWERED": """
@pytest.mark.parametrize("metadata", METADATA)
@pytest.mark.parametrize("construct", ANSWERED)
async def test_answer_reaches_the_scorer(construct, metadata):
    scored = await construct.score(outcome_output("answered"), metadata)
    assert_reaches_scorer(scored)
""",
}
_METRICS_TEST = """
@pytest.mark.parametrize("metadata", METADATA)
@pytest.mark.parametrize(("construct", "outcome", "value", "reason"), VERDICTS)
async def test_verdicts_keep_the_metadata_the_metrics_read(
    construct, outcome, value, reason, metadata
):
    scored = await construct.score(outcome_output(outcome), metadata)
    assert_metrics_accept(scored, {keys!r})
"""
