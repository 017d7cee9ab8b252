"""The schema of a registry entry: one YAML file per eval, validated by pydantic.

Settings inherit eval -> task -> scorer: a task or scorer entry states only
what differs from the level above it.
"""

import ast
import builtins
import re
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)

from empty_migrate.runtime.policy import Outcome, Route

Category = Literal["qa", "model_graded", "safety", "agentic"]
Polarity = Literal["refusal_good", "refusal_bad", "per_sample", "neutral"]
Construct = Literal["factory", "task_scorer", "shared_helper"]
Judge = Literal["scorer", "solver", "none", "several"]
CodemodName = Annotated[str, StringConstraints(pattern=r"^[a-z_]+$")]
"""A codemod's name; the registry's loader checks that a codemod has it."""
OutputLocation = Annotated[
    str,
    StringConstraints(
        pattern=r"^(state\.output|none|(last|first|every)_assistant"
        r"|(store|metadata|completions):\w+(,\w+)*)$"
    ),
]
"""Where the model under test's output is: ``state.output``; ``none`` (the
scorer never reads it); the ``last``/``first`` assistant message or ``every``
one (one answer per turn); ``store:KEY[,KEY...]`` or ``metadata:KEY[,KEY...]``
(outputs a solver saved, one or a list per key); ``completions:KEY`` (a list of
completion strings in metadata, such as forked generations)."""

_MESSAGE_LOCATORS = {
    "last_assistant": "last_assistant_output",
    "first_assistant": "first_assistant_output",
    "every_assistant": "assistant_outputs",
}
_KEYED_LOCATORS = {
    "store": "store_output",
    "metadata": "metadata_output",
    "completions": "metadata_output",
}


def output_locator(output: str) -> tuple[str, list[str] | None] | None:
    """The router locator for an output location: its name and key arguments.

    None for ``state.output`` and ``none`` (the router's default); keys None
    for a locator that is used by name rather than called.
    """
    if output in _MESSAGE_LOCATORS:
        return _MESSAGE_LOCATORS[output], None
    kind, _, keys = output.partition(":")
    if kind in _KEYED_LOCATORS:
        return _KEYED_LOCATORS[kind], keys.split(",")
    return None


Scalar = str | int | float | bool | None

FILE_LINE = re.compile(r"[\w/.-]+\.(py|yaml):\d+")


class _Strict(BaseModel):
    model_config = ConfigDict(
        extra="forbid", frozen=True, populate_by_name=True, defer_build=True
    )


class VerdictExpression(_Strict):
    """A verdict only code can give, written into the router call as it stands.

    For a value that depends on the sample (a function of ``state, target``)
    or on the eval's own configuration (a helper in scope where the scorer is
    returned, such as the eval's own no-answer value). Every name it uses
    must be defined or imported in the scorer's file (checked by ``registry
    validate --repo``).
    ``meaning`` says in words what the value is, for changelogs and reviews.
    """

    expression: str
    meaning: Annotated[str, StringConstraints(min_length=10)]

    @field_validator("expression")
    @classmethod
    def _parses(cls, expression: str) -> str:
        try:
            ast.parse(expression, mode="eval")
        except SyntaxError as error:
            raise ValueError(f"not a Python expression: {error.msg}") from None
        return expression

    def free_names(self) -> set[str]:
        """The names the expression needs from the scorer's file."""
        tree = ast.parse(self.expression, mode="eval")
        bound = {
            arg.arg
            for node in ast.walk(tree)
            if isinstance(node, ast.Lambda)
            for arg in [*node.args.posonlyargs, *node.args.args]
        }
        bound |= {
            target.id
            for node in ast.walk(tree)
            if isinstance(node, ast.comprehension)
            for target in ast.walk(node.target)
            if isinstance(target, ast.Name)
        }
        loaded = {
            node.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
        }
        return loaded - bound - set(dir(builtins))


def _expression_if_named(value: object) -> object:
    # a mapping with an "expression" key is always code, never a dict verdict
    if isinstance(value, dict) and "expression" in value:
        return VerdictExpression.model_validate(value)
    return value


Verdict = Annotated[
    VerdictExpression | Scalar | dict[str, Scalar],
    BeforeValidator(_expression_if_named),
]


class Override(_Strict):
    """A departure from the policy table, with the reason for it."""

    outcome: Outcome
    route: Route
    reason: Annotated[str, StringConstraints(min_length=10)]


class PolarityLabels(_Strict):
    """The values of a per-sample polarity key that mean each polarity.

    The tests the migration writes score every non-answer once with each.
    """

    refusal_good: Scalar
    refusal_bad: Scalar


class Settings(_Strict):
    """What inherits from eval to task to scorer."""

    category: Category | None = None
    polarity: Polarity | None = None
    polarity_key: str | None = None
    polarity_labels: PolarityLabels | None = None
    refusal_verdict: Verdict = None
    no_answer_verdict: Verdict = None
    copy_metadata: bool | list[str] | None = None
    verdict_metadata: Verdict = None
    output: OutputLocation | None = None
    judge: Judge | None = None
    overrides: list[Override] | None = None
    probe_metadata: dict[str, Any] | None = None


class TaskEntry(Settings):
    """One ``@task`` of the eval, with what differs from the eval's settings."""


class ScorerEntry(Settings):
    """A scorer construct the codemods rewrite, or know to leave alone.

    ``name`` is the ``@scorer`` factory, the shared helper, or for
    ``task_scorer`` the function whose ``Task(scorer=...)`` expression holds
    the scorer. ``file`` is relative to ``src/inspect_evals``. ``covered_by``
    names the entry whose wrap routes this scorer at runtime (a factory the
    task calls inside a wrapped ``Task(scorer=...)``). ``rewrite:
    false`` means the scorer gets no router wrap of its own (a metric
    helper, an inner scorer covered by wrapping its outer one, a scorer that
    never reads the model's text); its ``note`` says why. Checks inside it can
    still be fixed by replace_dead_check and fix_reason_tag.
    """

    name: str
    file: Annotated[str, StringConstraints(pattern=r"^[\w/.-]+\.py$")]
    construct_kind: Construct = Field(alias="construct")
    tasks: list[str] | None = None
    rewrite: bool = True
    covered_by: str | None = None
    note: str | None = None

    @property
    def module(self) -> str:
        """The dotted module that defines the construct, ``inspect_evals.<eval>...``."""
        return "inspect_evals." + self.file.removesuffix(".py").replace("/", ".")


class HelperEntry(_Strict):
    """A plain function, not a registered scorer, holding an empty check on the output.

    ``registry scan`` follows the model's output from each ``@scorer`` into
    the functions it is passed to and reports each such function; an
    unrecorded one is drift. ``name`` is the function's qualified name in
    ``file`` (``RefusalJudge.check`` for a method), ``file`` is relative to
    ``src/inspect_evals``. ``note`` says what the check does and why it is or
    is not rewritten.
    """

    name: Annotated[str, StringConstraints(pattern=r"^\w+(\.\w+)*$")]
    file: Annotated[str, StringConstraints(pattern=r"^[\w/.-]+\.py$")]
    note: Annotated[str, StringConstraints(min_length=10)]


class TextEdit(_Strict):
    """Replace `old`, which must occur exactly once, with `new`."""

    old: Annotated[str, StringConstraints(min_length=1)]
    new: str


class TestUpdate(_Strict):
    """A target test that pins the old non-answer behaviour, and its minimal update.

    ``test`` is the pytest node id, ``tests/<path>.py::<name>``; ``why`` says
    what the policy now does that the test did not expect.
    """

    test: Annotated[str, StringConstraints(pattern=r"^tests/[\w/.-]+\.py::\w+$")]
    why: Annotated[str, StringConstraints(min_length=10)]
    edits: Annotated[list[TextEdit], Field(min_length=1)]

    @property
    def file(self) -> str:
        """The test file, from the repo root."""
        return self.test.partition("::")[0]


class EvalEntry(Settings):
    """Everything the migration needs to know about one eval package."""

    category: Category
    polarity: Polarity
    output: OutputLocation
    judge: Judge
    today: str = Field(description="What an empty answer scores today, file:line.")
    codemods: list[CodemodName] | Literal["none", "manual"]
    codemods_reason: str | None = None
    tasks: dict[str, TaskEntry] = Field(default_factory=dict)
    scorers: list[ScorerEntry] = Field(default_factory=list)
    helpers: list[HelperEntry] = Field(default_factory=list)
    test_updates: list[TestUpdate] = Field(default_factory=list)

    @model_validator(mode="after")
    def _covered_by_a_routed_entry(self) -> "EvalEntry":
        routed = {s.name for s in self.scorers if s.rewrite}
        for scorer in self.scorers:
            if scorer.covered_by is not None and scorer.covered_by not in routed:
                raise ValueError(
                    f"{scorer.name}: covered_by {scorer.covered_by!r} is not a "
                    "scorer entry of this eval that is rewritten"
                )
        return self

    def tasks_of(self, scorer: ScorerEntry) -> list[str | None]:
        """The tasks that use a scorer: its own, else the eval's.

        ``[None]`` for an eval that names no task: `resolve` then reads the
        eval's and the scorer's settings alone.
        """
        tasks: list[str | None] = list(scorer.tasks or self.tasks)
        return tasks or [None]

    def unrouted_tasks(self) -> dict[str, str]:
        """Tasks of a migrated eval that read the model's output but no wrap covers.

        Each with the note of its scorer, which says what a person must do
        (cyberseceval_4's multi-turn tasks). Empty for ``none`` and ``manual``.
        """
        if not isinstance(self.codemods, list) or "wrap_router" not in self.codemods:
            return {}
        left = {}
        for task in self.tasks:
            scorers = [s for s in self.scorers if s.tasks is None or task in s.tasks]
            if any(s.rewrite or s.covered_by for s in scorers):
                continue
            if resolve(self, task).output != "none":
                left[task] = "; ".join(s.note or s.name for s in scorers)
        return left


class Resolved(_Strict):
    """The effective settings of one scorer in one task, after inheritance."""

    category: Category
    polarity: Polarity
    polarity_key: str | None
    polarity_labels: PolarityLabels | None
    refusal_verdict: Verdict
    no_answer_verdict: Verdict
    copy_metadata: bool | list[str]
    verdict_metadata: Verdict
    output: OutputLocation
    judge: Judge
    overrides: list[Override]
    probe_metadata: dict[str, Any]

    def probe_samples(self) -> list[tuple[str, dict[str, Any]]]:
        """The sample metadata to score a non-answer under, each with its label.

        ``probe_metadata``, once for each polarity label of a per-sample
        polarity eval (``refusal_good`` first), otherwise once as ``sample``.
        """
        labels, key = self.polarity_labels, self.polarity_key
        if self.polarity != "per_sample" or labels is None or key is None:
            return [("sample", dict(self.probe_metadata))]
        return [
            (polarity, {**self.probe_metadata, key: getattr(labels, polarity)})
            for polarity in ("refusal_good", "refusal_bad")
        ]


_INHERITED = tuple(Settings.model_fields)


def resolve(
    entry: EvalEntry, task: str | None = None, scorer: ScorerEntry | None = None
) -> Resolved:
    """Resolve eval -> task -> scorer inheritance into effective settings."""
    layers: list[Settings] = [entry]
    if task is not None and task in entry.tasks:
        layers.append(entry.tasks[task])
    if scorer is not None:
        layers.append(scorer)
    values: dict[str, object] = {}
    for layer in layers:
        values |= {
            k: getattr(layer, k) for k in _INHERITED if getattr(layer, k) is not None
        }
    values.setdefault("overrides", [])
    values.setdefault("polarity_key", None)
    values.setdefault("polarity_labels", None)
    values.setdefault("probe_metadata", {})
    values.setdefault("refusal_verdict", None)
    values.setdefault("no_answer_verdict", None)
    values.setdefault("copy_metadata", False)
    values.setdefault("verdict_metadata", None)
    return Resolved(**values)
