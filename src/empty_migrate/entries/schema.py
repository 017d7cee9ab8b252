"""The schema of a registry entry: one YAML file per eval, as frozen dataclasses.

Settings inherit eval -> task -> scorer: a task or scorer entry states only
what differs from the level above it.

Everything reads entries as plain dataclasses. The registry's loader validates
a file's data into them with pydantic (`validate_entry`), which reads the
rules written here as annotations (`Rule`) and ``__post_init__``
checks; a file it has validated before is not validated again, so a run needs
no validation library at all.
"""

import ast
import builtins
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields, is_dataclass
from enum import Enum
from functools import cache
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, TypeVar, cast

from empty_migrate.runtime.policy import POLICY, Outcome, Route
from empty_migrate.runtime.policy import Category as PolicyCategory
from empty_migrate.target.files import leaves_tree

if TYPE_CHECKING:  # pydantic validates entries, and loads only to do so
    from pydantic import GetCoreSchemaHandler, TypeAdapter
    from pydantic_core import CoreSchema

_Validated = TypeVar("_Validated")


@dataclass(frozen=True)
class Rule:
    """A rule the registry's validation applies to a value, read by pydantic.

    Attributes:
        pattern: A regular expression the string must match.
        before: A function of the raw value, applied before the type's own
            validation (it may turn a mapping into a dataclass).
        after: A function of the validated value; it raises `ValueError`
            with the problem, or returns the value.
        min_length: The fewest characters (a string) or items (a list) it
            may have: pydantic's own length check, worded as pydantic words it.
    """

    pattern: str | None = None
    before: Callable[[Any], Any] | None = None
    after: Callable[[Any], Any] | None = None
    min_length: int | None = None

    def __get_pydantic_core_schema__(
        self, source: Any, handler: "GetCoreSchemaHandler"
    ) -> "CoreSchema":
        """The schema of the annotated type, with this rule (pydantic's hook)."""
        from pydantic_core import core_schema

        schema = handler(source)
        if self.min_length is not None:
            # as pydantic applies annotated_types' MinLen: a constraint of the schema
            schema = cast("CoreSchema", {**schema, "min_length": self.min_length})
        if self.pattern is not None:
            schema = core_schema.str_schema(pattern=self.pattern)
        if self.after is not None:
            schema = core_schema.no_info_after_validator_function(self.after, schema)
        if self.before is not None:
            schema = core_schema.no_info_before_validator_function(self.before, schema)
        return schema


_STRICT = {"extra": "forbid"}
"""Every entry class's validation: a key the schema does not know is a problem."""

Category = Literal["qa", "model_graded", "safety", "agentic"]
Polarity = Literal["refusal_good", "refusal_bad", "per_sample", "neutral"]
Construct = Literal["factory", "task_scorer", "shared_helper"]
Judge = Literal["scorer", "solver", "none", "several"]
CodemodName = Annotated[str, Rule(pattern=r"^[a-z_]+$")]
"""A codemod's name; the registry's loader checks that a codemod has it."""
OutputLocation = Annotated[
    str,
    Rule(
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


def _inside(path: str) -> str:
    """A path an entry names (a ``::name`` after it aside), if inside the tree."""
    file = path.partition("::")[0]
    if problem := leaves_tree(file):
        raise ValueError(f"{file} {problem}")
    return path


PythonFile = Annotated[str, Rule(pattern=r"^[\w/.-]+\.py$", after=_inside)]


def _parses(expression: str) -> str:
    try:
        ast.parse(expression, mode="eval")
    except SyntaxError as error:
        raise ValueError(f"not a Python expression: {error.msg}") from None
    return expression


@dataclass(frozen=True, kw_only=True)
class VerdictExpression:
    """A verdict only code can give, written into the router call as it stands.

    For a value that depends on the sample (a function of ``state, target``)
    or on the eval's own configuration (a helper in scope where the scorer is
    returned, such as the eval's own no-answer value). Every name it uses
    must be defined or imported in the scorer's file (checked by ``registry
    validate --repo``).
    ``meaning`` says in words what the value is, for changelogs and reviews.
    """

    __pydantic_config__: ClassVar = _STRICT

    expression: Annotated[str, Rule(after=_parses)]
    meaning: Annotated[str, Rule(min_length=10)]

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
        return _adapter(VerdictExpression).validate_python(value)
    return value


Verdict = Annotated[
    VerdictExpression | Scalar | dict[str, Scalar],
    Rule(before=_expression_if_named),
]


@dataclass(frozen=True, kw_only=True)
class Override:
    """A departure from the policy table, with the reason for it."""

    __pydantic_config__: ClassVar = _STRICT

    outcome: Outcome
    route: Route
    reason: Annotated[str, Rule(min_length=10)]


@dataclass(frozen=True, kw_only=True)
class PolarityLabels:
    """The values of a per-sample polarity key that mean each polarity.

    The tests the migration writes score every non-answer once with each.
    """

    __pydantic_config__: ClassVar = _STRICT

    refusal_good: Scalar
    refusal_bad: Scalar


@dataclass(frozen=True, kw_only=True)
class Settings:
    """What inherits from eval to task to scorer."""

    __pydantic_config__: ClassVar = _STRICT

    category: Category | None = None
    polarity: Polarity | None = None
    polarity_key: str | None = None
    polarity_labels: PolarityLabels | None = None
    refusal_verdict: Verdict = None
    no_answer_verdict: Verdict = None
    copy_metadata: bool | list[str] | None = None
    verdict_metadata: Verdict = None
    absent_metadata: dict[str, Annotated[str, Rule(min_length=10)]] | None = None
    output: OutputLocation | None = None
    judge: Judge | None = None
    overrides: list[Override] | None = None
    probe_metadata: dict[str, Any] | None = None
    probe_target: str | None = None
    probe_choices: list[str] | None = None
    probe_offline: Annotated[str, Rule(min_length=10)] | None = None


@dataclass(frozen=True, kw_only=True)
class TaskEntry(Settings):
    """One ``@task`` of the eval, with what differs from the eval's settings."""


@dataclass(frozen=True, kw_only=True)
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
    file: PythonFile
    construct: Construct
    tasks: list[str] | None = None
    rewrite: bool = True
    covered_by: str | None = None
    note: str | None = None
    probe_arguments: dict[str, Annotated[str, Rule(after=_parses)]] | None = None

    @property
    def module(self) -> str:
        """The dotted module that defines the construct, ``inspect_evals.<eval>...``."""
        return "inspect_evals." + self.file.removesuffix(".py").replace("/", ".")


@dataclass(frozen=True, kw_only=True)
class HelperEntry:
    """A plain function, not a registered scorer, holding an empty check on the output.

    ``registry scan`` follows the model's output from each ``@scorer`` into
    the functions it is passed to and reports each such function; an
    unrecorded one is drift. ``name`` is the function's qualified name in
    ``file`` (``RefusalJudge.check`` for a method), ``file`` is relative to
    ``src/inspect_evals``. ``note`` says what the check does and why it is or
    is not rewritten.
    """

    __pydantic_config__: ClassVar = _STRICT

    name: Annotated[str, Rule(pattern=r"^\w+(\.\w+)*$")]
    file: PythonFile
    note: Annotated[str, Rule(min_length=10)]


@dataclass(frozen=True, kw_only=True)
class TextEdit:
    """Replace `old`, which must occur exactly once, with `new`."""

    __pydantic_config__: ClassVar = _STRICT

    old: Annotated[str, Rule(min_length=1)]
    new: str


@dataclass(frozen=True, kw_only=True)
class TestUpdate:
    """A target test that pins the old non-answer behaviour, and its minimal update.

    ``test`` is the pytest node id, ``tests/<path>.py::<name>``; ``why`` says
    what the policy now does that the test did not expect.
    """

    __pydantic_config__: ClassVar = _STRICT

    test: Annotated[str, Rule(pattern=r"^tests/[\w/.-]+\.py::\w+$", after=_inside)]
    why: Annotated[str, Rule(min_length=10)]
    edits: Annotated[list[TextEdit], Rule(min_length=1)]

    @property
    def file(self) -> str:
        """The test file, from the repo root."""
        return self.test.partition("::")[0]


@dataclass(frozen=True, kw_only=True)
class EvalEntry(Settings):
    """Everything the migration needs to know about one eval package.

    ``today`` says what an empty answer scores today, citing the code as
    ``path::symbol`` (`empty_migrate.analysis.citations`).
    """

    # required here, though a task or scorer may leave them to the eval
    category: Category = field()
    polarity: Polarity = field()
    output: OutputLocation = field()
    judge: Judge = field()
    today: str
    codemods: list[CodemodName] | Literal["none", "manual"]
    codemods_reason: str | None = None
    tasks: dict[str, TaskEntry] = field(default_factory=dict)
    scorers: list[ScorerEntry] = field(default_factory=list)
    helpers: list[HelperEntry] = field(default_factory=list)
    test_updates: list[TestUpdate] = field(default_factory=list)

    def __post_init__(self) -> None:
        routed = {s.name for s in self.scorers if s.rewrite}
        for scorer in self.scorers:
            if scorer.covered_by is not None and scorer.covered_by not in routed:
                raise ValueError(
                    f"{scorer.name}: covered_by {scorer.covered_by!r} is not a "
                    "scorer entry of this eval that is rewritten"
                )

    def tasks_of(self, scorer: ScorerEntry) -> list[str | None]:
        """The tasks that use a scorer: its own, else the eval's.

        ``[None]`` for an eval that names no task: `resolve` then reads the
        eval's and the scorer's settings alone.
        """
        tasks: list[str | None] = list(scorer.tasks or self.tasks)
        return tasks or [None]

    def reads_model_output(self, scorer: ScorerEntry) -> bool:
        """Whether a codemod should touch a scorer: listed for rewrite, reads text."""
        task = self.tasks_of(scorer)[0]
        return scorer.rewrite and resolve(self, task, scorer).output != "none"

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


@dataclass(frozen=True, kw_only=True)
class Resolved:
    """The effective settings of one scorer in one task, after inheritance."""

    category: Category
    polarity: Polarity
    polarity_key: str | None
    polarity_labels: PolarityLabels | None
    refusal_verdict: Verdict
    no_answer_verdict: Verdict
    copy_metadata: bool | list[str]
    verdict_metadata: Verdict
    absent_metadata: dict[str, str]
    output: OutputLocation
    judge: Judge
    overrides: list[Override]
    probe_metadata: dict[str, Any]
    probe_target: str | None
    probe_choices: list[str] | None
    probe_offline: str | None

    def routes(self) -> set[Route]:
        """Every route some outcome takes, under the category and the overrides."""
        routes = set(POLICY[PolicyCategory(self.category)].values())
        return routes | {override.route for override in self.overrides}

    def verdicts_written(self) -> dict[str, Verdict]:
        """The verdicts the router writes, by argument name; None for its default.

        ``refusal_verdict`` and ``no_answer_verdict``, each where a route gives it.
        """
        routes = self.routes()
        return {
            name: getattr(self, name)
            for route, name in [
                (Route.REFUSAL_VERDICT, "refusal_verdict"),
                (Route.NO_ANSWER, "no_answer_verdict"),
            ]
            if route in routes
        }

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


_INHERITED = tuple(f.name for f in fields(Settings))


def resolve(
    entry: EvalEntry, task: str | None = None, scorer: ScorerEntry | None = None
) -> Resolved:
    """Resolve eval -> task -> scorer inheritance into effective settings."""
    layers: list[Settings] = [entry]
    if task is not None and task in entry.tasks:
        layers.append(entry.tasks[task])
    if scorer is not None:
        layers.append(scorer)
    values: dict[str, Any] = {}
    for layer in layers:
        values |= {
            k: getattr(layer, k) for k in _INHERITED if getattr(layer, k) is not None
        }
    values.setdefault("overrides", [])
    values.setdefault("polarity_key", None)
    values.setdefault("polarity_labels", None)
    values.setdefault("probe_metadata", {})
    values.setdefault("probe_target", None)
    values.setdefault("probe_choices", None)
    values.setdefault("probe_offline", None)
    values.setdefault("refusal_verdict", None)
    values.setdefault("no_answer_verdict", None)
    values.setdefault("copy_metadata", False)
    values.setdefault("verdict_metadata", None)
    values.setdefault("absent_metadata", {})
    return Resolved(**values)


PROSE = frozenset({"today", "codemods_reason", "note", "reason", "why", "meaning"})
"""The fields written for people, where an entry cites the target's code."""

Location = tuple[str | int, ...]
"""Where a value is in an entry, by keys and indexes: ``("scorers", 0, "note")``."""


def prose(value: Any, location: Location = ()) -> Iterator[tuple[Location, str]]:
    """Every text in a `PROSE` field of an entry (or a part of one), with its location.

    Only fields of the entry's classes count: the free-form mappings (sample
    metadata, verdict values) hold data, not prose.
    """
    if is_dataclass(value) and not isinstance(value, type):
        for item in fields(value):
            found = getattr(value, item.name)
            if item.name in PROSE and isinstance(found, str):
                yield (*location, item.name), found
            else:
                yield from prose(found, (*location, item.name))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from prose(item, (*location, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from prose(item, (*location, index))


def validate_entry(data: Any) -> EvalEntry:
    """A registry file's data (as YAML reads it) as an entry, checked.

    Raises:
        pydantic.ValidationError: With every problem found, each at its path.
    """
    adapter: TypeAdapter[EvalEntry] = _adapter(EvalEntry)  # cache keeps no generics
    return adapter.validate_python(data)


@cache
def _adapter(kind: type[_Validated]) -> "TypeAdapter[_Validated]":
    """Pydantic's validator of one entry class, built once."""
    from pydantic import TypeAdapter  # only validation needs pydantic

    return TypeAdapter(kind)


def as_data(value: Any) -> Any:
    """An entry or a part of one as plain data, its unset (None) fields left out."""
    if is_dataclass(value) and not isinstance(value, type):
        return {
            item.name: as_data(getattr(value, item.name))
            for item in fields(value)
            if getattr(value, item.name) is not None
        }
    if isinstance(value, dict):
        return {key: as_data(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_data(item) for item in value]
    if isinstance(value, Enum):
        return value.value
    return value
