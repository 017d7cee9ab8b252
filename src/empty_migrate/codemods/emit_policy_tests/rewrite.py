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

import ast
import textwrap
from functools import cache
from typing import Any

from empty_migrate.analysis.syntax import import_bindings, parse_python, scope_bindings
from empty_migrate.codemods.kit.base import Codemod, EvalTarget
from empty_migrate.codemods.kit.generated import (
    module_source,
    ruff_clean,
    with_docstring,
)
from empty_migrate.codemods.kit.imports import NeededImports
from empty_migrate.codemods.kit.router_call import ROUTER_MODULE, value
from empty_migrate.entries.outcome_data import outcome_fixtures, outcome_outputs
from empty_migrate.entries.output_locations import observable, seen_as
from empty_migrate.entries.schema import Resolved, ScorerEntry, VerdictExpression
from empty_migrate.runtime.policy import Outcome, Route, route_for, route_reason

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
    # the probe reads the router's rules; in the target, from the router installed
    source = source.replace("empty_migrate.runtime.router", ROUTER_MODULE)
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


GAVE_UP = (Outcome.TOOL_CALLS_ONLY, Outcome.EMPTY, Outcome.REASONING_ONLY)
"""How an agent's last turn gives up: tested with the output slot left empty."""


def _read_through(outcome: Outcome) -> bool:
    """Whether the router reads `outcome` from a last turn left in the transcript.

    With the slot empty the router reads the model's last message, which keeps
    tool calls and reasoning but not the stop reason (outside a running sample
    there is no model call to read it from).
    """
    return outcome in GAVE_UP and seen_as(outcome, "last_assistant") == outcome


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
            agent = route_for(
                settings.category, outcome, overrides, after_trajectory=True
            )
            if agent != route:
                after = f"{constant}.after_agent_trajectory()"
                self._row(scorer, after, outcome, agent, settings, "-after_tools")
            # where the router decides: the eval's own scorer may need the slot
            decides = agent not in (Route.SCORE, Route.SCORE_TAGGED)
            if settings.output == "state.output" and decides and _read_through(outcome):
                left = f"{constant}.left_in_transcript()"
                self._row(scorer, left, outcome, agent, settings, "-in_transcript")
        self.rows["ANSWERED"].append(_param(constant, id=self._local(scorer)))
        self._metadata(settings)

    def _construct(self, scorer: ScorerEntry, settings: Resolved) -> str:
        local = self._local(scorer)
        imported = scorer.name if local == scorer.name else f"{scorer.name} as {local}"
        self.imports.add(scorer.module, imported)
        self.imports.add(FIXTURES_MODULE, "Construct")
        constant = local.strip("_").upper()
        options = [f"output_at={settings.output!r}"]
        if scorer.probe_arguments:
            arguments = self._arguments(scorer, constant)
            options.append(f"arguments={arguments}")
        if settings.probe_target is not None:
            options.append(f"target={settings.probe_target!r}")
        if settings.probe_choices is not None:
            options.append(f"choices={settings.probe_choices!r}")
        if settings.probe_offline is not None:
            options.append(f"offline={settings.probe_offline!r}")
        self.constructs.append(
            f"{constant} = Construct({local}, {scorer.construct!r}, "
            f'"inspect_evals.{self.target.name}", {", ".join(options)})\n'
        )
        return constant

    def _arguments(self, scorer: ScorerEntry, constant: str) -> str:
        """The module constant holding the factory's hand-made arguments."""
        given = scorer.probe_arguments or {}
        for expression in given.values():
            code = VerdictExpression(expression=expression, meaning="an argument")
            if not self._import_free_names(scorer, code):
                raise ValueError(f"{scorer.name}: probe_arguments read its locals")
        name = f"{constant}_ARGUMENTS"
        pairs = "".join(f"    {key!r}: {text},\n" for key, text in given.items())
        self.constructs.append(f"{name}: dict[str, Any] = {{\n{pairs}}}\n")
        self.imports.add("typing", "Any")
        return name

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
        suffix: str = "",
    ) -> None:
        name = f"{self._local(scorer)}-{outcome}{suffix}"
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
            reason = repr(route_reason(outcome))
            row = _param(
                constant, repr(str(outcome)), repr(str(route)), reason, id=name
            )
            self.rows["SCORED"].append(row)

    def _verdict(self, scorer: ScorerEntry, route: Route, settings: Resolved) -> str:
        name = (
            "refusal_verdict" if route == Route.REFUSAL_VERDICT else "no_answer_verdict"
        )
        verdict = getattr(settings, name)
        if verdict is None:
            verdict = "N"
        if isinstance(verdict, VerdictExpression):
            if not self._import_free_names(scorer, verdict):
                return self._once(scorer, name, self._bound(scorer, verdict))
        return value(self.imports, verdict)

    def _once(self, scorer: ScorerEntry, name: str, text: str) -> str:
        """A module constant holding the verdict `text`, written once."""
        if text == "EVALS_OWN_VERDICT":
            return text
        constant = f"{self._local(scorer).strip('_').upper()}_{name.upper()}"
        line = f"{constant} = {text}\n"
        if line not in self.constructs:
            self.constructs.append(line)
        return constant

    def _bound(self, scorer: ScorerEntry, verdict: VerdictExpression) -> str:
        """The expression with the construct's parameters it reads bound.

        Each to the argument the test builds the scorer with: its hand-made
        one (`ScorerEntry.probe_arguments`) or the parameter's default, as
        the probe builds it (coconot's ``subset``). An expression that reads
        a local of the construct's body (healthbench's ``_empty_score_value``)
        only the eval's scorer can compute: `EVALS_OWN_VERDICT`.
        """
        module_names = verdict.free_names() & self._module_names(scorer)
        names = sorted(verdict.free_names() - module_names)
        given = scorer.probe_arguments or {}
        defaults = self._parameter_defaults(scorer)
        if not set(names) <= {*given, *defaults}:
            self.imports.add(FIXTURES_MODULE, "EVALS_OWN_VERDICT")
            return "EVALS_OWN_VERDICT"
        self._import(scorer, module_names)
        constant = self._local(scorer).strip("_").upper()
        bound = [
            f"{constant}_ARGUMENTS[{name!r}]" if name in given else defaults[name]
            for name in names
        ]
        return f"(lambda {', '.join(names)}: {verdict.expression})({', '.join(bound)})"

    def _parameter_defaults(self, scorer: ScorerEntry) -> dict[str, str]:
        """The construct's parameters with a literal default, as source text."""
        tree = parse_python(self.target.read(self.target.source(scorer.file)))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name == scorer.name:
                arguments = node.args
                positional = [*arguments.posonlyargs, *arguments.args]
                pairs = [
                    *zip(positional[::-1], arguments.defaults[::-1], strict=False),
                    *zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True),
                ]
                return {
                    arg.arg: repr(ast.literal_eval(default))
                    for arg, default in pairs
                    if default is not None and _is_literal(default)
                }
        return {}

    def _module_names(self, scorer: ScorerEntry) -> set[str]:
        """The names bound at the top of the construct's module."""
        tree = self.target.workspace.parse(
            self.target.read(self.target.source(scorer.file))
        )
        return set(scope_bindings(tree.body))

    def _import_free_names(
        self, scorer: ScorerEntry, verdict: VerdictExpression
    ) -> bool:
        """Import what the expression names; False if it reads the scorer's locals."""
        free = verdict.free_names()
        if not free <= self._module_names(scorer):
            return False
        self._import(scorer, free)
        return True

    def _import(self, scorer: ScorerEntry, names: set[str]) -> None:
        """Import `names`, bound at the top of the construct's module.

        A name the module imports comes from where the module has it (the
        target's mypy wants no implicit re-export); any other from the module.
        """
        tree = self.target.workspace.parse(
            self.target.read(self.target.source(scorer.file))
        )
        package = scorer.module.rpartition(".")[0]
        imported = {
            binding.local: binding
            for node in tree.body
            for binding in import_bindings(node, package)
        }
        for name in sorted(names):
            binding = imported.get(name)
            if binding is None:
                self.imports.add(scorer.module, name)
            elif binding.name is None:
                self.module_imports.add(name)
            elif binding.name == name:
                self.imports.add(binding.module, name)
            else:
                self.imports.add(binding.module, f"{binding.name} as {name}")

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


def _is_literal(node: ast.expr) -> bool:
    try:
        ast.literal_eval(node)
    except ValueError:
        return False
    return True


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
    "SCORED": "assert_scored",
    "ANSWERED": "assert_scored",
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
@pytest.mark.parametrize(("construct", "outcome", "route", "reason"), SCORED)
async def test_non_answer_reaches_the_scorer(
    construct, outcome, route, reason, metadata
):
    scored = await construct.score(outcome_output(outcome), metadata)
    assert_scored(scored, outcome, route, reason)
""",
    "ANSWERED": """
@pytest.mark.parametrize("metadata", METADATA)
@pytest.mark.parametrize("construct", ANSWERED)
async def test_answer_reaches_the_scorer(construct, metadata):
    scored = await construct.score(outcome_output("answered"), metadata)
    assert_scored(scored, "answered", "score")
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
