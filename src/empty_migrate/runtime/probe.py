"""Score one model output with one scorer, as Inspect runs a scorer, offline.

The one place that knows how to put a model's output in front of a scorer and
watch what happens: the score it returns (or the error it raises) and how many
times it asked a judge. ``empty-migrate audit`` runs it on every registered
scorer, and the tests the migration writes into a target run it from
``tests/utils/empty_response.py``, which is generated from this module, so the
two never drift. It depends only on inspect_ai's public API, the stdlib and
PyYAML (which inspect_ai and inspect_evals both require; read for run configs).

Every judge is a scripted ``mockllm/model`` that records its prompts. It takes
the place of inspect_ai's public ``get_model`` wherever an imported module
holds that function (found by identity). In the eval's packages, and in the
module that ``model_graded_qa`` and ``model_graded_fact`` come from (asked of
those functions, so that no private module is named), every model asked for
is the judge, so a judge named outright (``get_model("openai/gpt-4o")``) is the
mock too; everywhere else a model asked for by role is the judge (a shared
helper's ``get_model(role="grader")``), and any other request is inspect_ai's
own. The target's tests patch ``get_model`` the same way. Nothing reaches the
network.

Why by replacing ``get_model``: inspect_ai binds model roles only inside
``eval()`` and ``score()``, with a model per role name it is given, so no
public call binds every role a scorer may name around one scorer call. Its
fallback for an unbound role (the active model, then ``$INSPECT_EVAL_MODEL``)
is never reached by a role with a ``default=`` or ``required=True``, and would
also answer a bare ``get_model()``; a ``ModelAPI`` of our own would still need
one of those to be chosen. A module first imported while the judge records
gets the stand-in from the module it imports ``get_model`` from, and the
stand-ins give inspect_ai's own model again once no judge records, so a copy
kept anywhere is harmless.
"""

import ast
import builtins
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import inspect
import math
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from copy import copy
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import Any, cast

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageTool,
    ChatMessageUser,
    GenerateConfig,
    Model,
    ModelName,
    ModelOutput,
    ModelUsage,
    get_model,
)
from inspect_ai.scorer import (
    SampleScore,
    Score,
    Scorer,
    Target,
    model_graded_fact,
    model_graded_qa,
)
from inspect_ai.solver import TaskState
from inspect_ai.tool import ToolCall, ToolChoice, ToolInfo
from inspect_ai.util import registry_info

PROMPT = "What is the capital of France?"
TARGET = "Paris"


class RecordingJudge:
    """A ``mockllm/model`` judge that answers `reply` and records every prompt.

    ``judge.prompts`` holds one entry per grading request, so a test can prove
    that a routed scorer did, or did not, call its judge.

    Args:
        reply: The judge's answer to every request, e.g. ``"GRADE: C"``.
    """

    def __init__(self, reply: str = "GRADE: C") -> None:
        self.reply = reply
        self.prompts: list[str] = []
        self.model = get_model("mockllm/model", custom_outputs=self._answer)

    def _answer(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        self.prompts.append(input[-1].text if input else "")
        output = ModelOutput.from_content("mockllm/model", self.reply)
        # mockllm would estimate usage with tiktoken, which downloads its encoding
        output.usage = ModelUsage(input_tokens=10, output_tokens=2, total_tokens=12)
        return output

    def for_role(self, config: GenerateConfig | None = None) -> Model:
        """The judge as ``get_model(role=..., config=config)`` gives a bound role."""
        if config is None or not config.model_dump(exclude_none=True):
            return self.model
        configured = copy(self.model)
        configured.config = config.merge(self.model.config)
        return configured


_RECORDING: list[RecordingJudge] = []
"""The judges recording now, innermost last: the stand-ins answer with it."""


def _judge_outright(*args: Any, **kwargs: Any) -> Model:
    """``get_model`` in the eval's modules: the judge, whatever is asked for."""
    if not _RECORDING:
        return get_model(*args, **kwargs)
    return _RECORDING[-1].model


def _judge_for_role(
    model: str | Model | None = None,
    *,
    role: str | None = None,
    config: GenerateConfig | None = None,
    **kwargs: Any,
) -> Model:
    """``get_model`` elsewhere: the judge for a role or a bare call, else inspect_ai's.

    A bare ``get_model()`` asks for the active model, which a scorer built
    outside ``eval()`` uses as its grader (browse_comp's default scorer model).
    """
    if not _RECORDING or isinstance(model, Model) or _names_a_model(model, role):
        return get_model(model, role=role, config=config, **kwargs)
    return _RECORDING[-1].for_role(config)


def _names_a_model(model: str | None, role: str | None) -> bool:
    return role is None and model is not None


_STAND_INS = (_judge_outright, _judge_for_role)


@contextmanager
def recording_judge(
    *packages: str, reply: str = "GRADE: C"
) -> Iterator[RecordingJudge]:
    """Make every judge the scorers of `packages` use a recording mock.

    In every imported module of `packages` and of inspect_ai's model-graded
    scorers, ``get_model`` gives the judge whatever is asked for, so a judge
    named outright (``get_model("openai/gpt-4o")``) is the mock too; in every
    other module that holds ``get_model``, a model role resolves to the judge.
    Import the scorer's modules before entering. Everything is put back on
    leaving; recorders nest, the innermost recording.

    Args:
        *packages: Dotted package names whose modules' ``get_model`` gives the
            judge outright, e.g. ``"inspect_evals.xstest"``.
        reply: What the judge answers.
    """
    judge = RecordingJudge(reply)
    outright = (*packages, model_graded_qa.__module__, model_graded_fact.__module__)
    replaced = _stand_in(outright)
    _RECORDING.append(judge)
    try:
        yield judge
    finally:
        _RECORDING.remove(judge)
        for module, previous in reversed(replaced):
            vars(module)["get_model"] = previous
        if not _RECORDING:
            _put_back_everywhere()


def _stand_in(outright: tuple[str, ...]) -> list[tuple[Any, Any]]:
    """A stand-in in every module that holds ``get_model``; each module and its own.

    The judge outright in the modules whose name starts with `outright`, the
    judge for a role elsewhere.
    """
    replaced: list[tuple[Any, Any]] = []
    for name, module in list(sys.modules.items()):
        held = _held(module)
        # this module's own stays inspect_ai's: the stand-ins call it
        if name != __name__ and (held is get_model or _is_stand_in(held)):
            replaced.append((module, held))
            judged = name.startswith(outright)
            vars(module)["get_model"] = _judge_outright if judged else _judge_for_role
    return replaced


def _held(module: Any) -> Any:
    """The ``get_model`` a module holds as its own (a lazy export is not asked)."""
    namespace = getattr(module, "__dict__", None)
    return namespace.get("get_model") if isinstance(namespace, dict) else None


def _put_back_everywhere() -> None:
    """inspect_ai's ``get_model`` in the modules imported while a judge recorded."""
    for module in list(sys.modules.values()):
        if _is_stand_in(_held(module)):
            vars(module)["get_model"] = get_model


def _is_stand_in(held: Any) -> bool:
    return any(held is stand_in for stand_in in _STAND_INS)


def task_state(
    output: ModelOutput,
    *,
    output_at: str = "state.output",
    metadata: dict[str, Any] | None = None,
    choices: Sequence[str] | None = None,
    target: str | list[str] = TARGET,
    after_tools: bool = False,
    slot_empty: bool = False,
) -> TaskState:
    """The task state a scorer sees after the model under test produced `output`.

    Args:
        output: The model under test's final output.
        output_at: Where the eval keeps it, as the registry writes it
            (`OutputLocation`): ``state.output``, an assistant message,
            ``store:KEY``, ``metadata:KEY`` (a list under each key when there
            are several) or ``completions:KEY`` (its text in a list). The
            output's message ends ``state.messages`` in every case.
        metadata: Sample metadata (a per-sample polarity label, for example).
        choices: The sample's choices, for multiple-choice scorers.
        target: The sample's target.
        after_tools: Whether the model ran a tool before `output`: the
            messages hold its tool-calling turn and the tool's result (an
            agent trajectory), the output slot still holds `output`.
        slot_empty: Whether the solver left the output slot empty, so the
            model's last turn is only in the messages (an agent that never
            writes it, a solver that keeps the answer elsewhere).
    """
    state = TaskState(
        model=ModelName("mockllm/model"),
        sample_id=1,
        epoch=1,
        input=PROMPT,
        messages=[ChatMessageUser(content=PROMPT)],
        target=Target(target),
        choices=list(choices) if choices else None,
        output=output,
        metadata=dict(metadata or {}),
    )
    if after_tools:
        state.messages += tool_turn()
    place_output(state, output, output_at)
    if slot_empty:
        state.output = ModelOutput(model="mockllm/model")
    return state


def tool_turn() -> list[ChatMessage]:
    """One turn of an agent: a tool call of the model and the tool's result."""
    call = ToolCall(id="call_1", function="bash", arguments={"cmd": "ls"})
    return [
        ChatMessageAssistant(content="", tool_calls=[call], model="mockllm/model"),
        ChatMessageTool(content="README.md", tool_call_id="call_1", function="bash"),
    ]


def place_output(
    state: TaskState, output: ModelOutput, output_at: str = "state.output"
) -> None:
    """Put the model under test's output where the eval keeps it (`task_state`)."""
    if output.choices:
        state.messages.append(output.message)
    state.output = output
    where, _, keys = output_at.partition(":")
    saved = output.model_dump()
    if where == "completions":
        state.metadata[keys] = [output.completion]
    elif where in ("store", "metadata"):
        state.output = ModelOutput(model="mockllm/model")
        save = state.store.set if where == "store" else state.metadata.__setitem__
        several = "," in keys
        for key in keys.split(","):
            save(key, [saved] if several else saved)


@dataclass
class Scored:
    """What one scorer made of one output: a score or an error, and its judge calls."""

    score: Score | None
    raised: Exception | None
    judge_calls: int
    state: TaskState | None = None
    scorer: Scorer | None = None
    own: Any = None
    """What the eval's own scorer, unrouted, made of the same sample: a `Scored`.

    (Not annotated so: a dataclass reads a string annotation from its module,
    which the generated module, run from its text, may not be.)"""
    offline: str | None = None
    """Why the scorer cannot score the sample offline, if it is declared."""

    @property
    def empty_outcome(self) -> str | None:
        """The outcome the router recorded, or None if the scorer scored it."""
        if self.score is None:
            return None
        return (self.score.metadata or {}).get("empty_outcome")


async def score_output(
    scorer: Scorer,
    state: TaskState,
    judge: RecordingJudge,
) -> Scored:
    """Run `scorer` on `state` as Inspect does, and report what it did.

    An exception the scorer raises is returned, not raised: raising is one of
    the routes a non-answer can take.
    """
    before = len(judge.prompts)
    try:
        score = await scorer(state, state.target)
    except Exception as error:
        return Scored(None, error, len(judge.prompts) - before, state, scorer)
    return Scored(score, None, len(judge.prompts) - before, state, scorer)


@dataclass(frozen=True)
class Construct:
    """A routed scorer construct of an eval, as the eval's code builds it.

    Args:
        function: The registered construct, imported from its module: a
            ``@scorer`` factory, a shared helper, or the ``@task`` function
            whose ``Task(scorer=...)`` holds the scorer.
        kind: ``factory``, ``shared_helper`` or ``task_scorer``.
        package: The eval's package; its judges are the recording mock.
        output_at: Where the eval keeps the model's output (`task_state`).
        arguments: The factory's arguments, where the eval's own code takes
            them from a download (hand-made, as the eval's own tests make them).
        target: The sample's target (`task_state`).
        choices: The sample's choices, for a multiple-choice scorer
            (`task_state`); None for a sample without.
        offline: Why the eval's scorer cannot score the offline sample,
            after the classes of the errors it raises, comma-separated
            (``"ProcessLookupError: needs a sandbox"``); None if it can.
        after_tools: Score each output after an agent trajectory (`task_state`).
        slot_empty: Leave the output slot empty, the output's message only in
            the messages (`task_state`).
    """

    function: Callable[..., Any]
    kind: str
    package: str
    output_at: str = "state.output"
    arguments: dict[str, Any] | None = None
    target: str = TARGET
    choices: list[str] | None = None
    offline: str | None = None
    after_tools: bool = False
    slot_empty: bool = False

    def after_agent_trajectory(self) -> "Construct":
        """The same construct, scoring each output after a tool-calling turn."""
        return replace(self, after_tools=True)

    def left_in_transcript(self) -> "Construct":
        """The same construct, scoring an agent's last turn with the slot empty."""
        return replace(self, after_tools=True, slot_empty=True)

    async def score(
        self, output: ModelOutput, metadata: dict[str, Any] | None = None
    ) -> list[Scored]:
        """Build the scorer and score `output` with it (with each, if several).

        An optional dependency absent from the environment is deferred
        (`absent_dependencies_deferred`): the eval's scorer raises
        ``ModuleNotFoundError`` when it first uses it, which only an answer
        reaches. A routed scorer's result carries what the scorer it wraps
        made of the same sample (`Scored.own`).
        """
        function = inspect.unwrap(self.function)
        module, name = function.__module__, function.__name__
        with recording_judge(self.package, module) as judge:
            with absent_dependencies_deferred(self.package.partition(".")[0]):
                built = build_scorer(
                    module,
                    name,
                    self.kind,
                    package=self.package,
                    arguments=self.arguments,
                )
            scored = []
            for scorer in built if isinstance(built, list) else [built]:
                one = await score_output(scorer, self._state(output, metadata), judge)
                one.offline = self.offline
                wrapped = getattr(scorer, "__wrapped__", None)
                if wrapped is not None:
                    sample = self._state(output, metadata)
                    one.own = await score_output(wrapped, sample, judge)
                scored.append(one)
            return scored

    def _state(self, output: ModelOutput, metadata: dict[str, Any] | None) -> TaskState:
        return task_state(
            output,
            output_at=self.output_at,
            metadata=metadata,
            target=self.target,
            choices=self.choices,
            after_tools=self.after_tools,
            slot_empty=self.slot_empty,
        )


@contextmanager
def absent_dependencies_deferred(importers: str) -> Iterator[None]:
    """Let code of `importers` import an optional dependency that is not installed.

    Inside, such an import (or ``find_spec``) gives a stand-in module instead of
    failing, and whatever is taken from it, an attribute or a call's result,
    is another stand-in, so a scorer factory that imports the dependency or
    makes its client builds. Once the block is left, calling anything taken
    from a stand-in raises ``ModuleNotFoundError``: the eval's scorer fails
    where it first uses the dependency, as it does in an environment without
    it, and nothing it does before is faked. Installed modules import as ever,
    and the stand-ins leave ``sys.modules`` on exit.

    Args:
        importers: The top-level package whose code may import a stand-in
            (``inspect_evals``); an import from anywhere else fails as ever.
    """
    finder = _AbsentFinder(importers)
    sys.meta_path.append(finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
        finder.building = False
        for name, module in list(sys.modules.items()):
            if isinstance(module, _AbsentModule):
                del sys.modules[name]


class _AbsentFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds, last of all finders, a stand-in for what `importers` cannot import."""

    def __init__(self, importers: str) -> None:
        self.importers = importers
        self.building = True

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if not self.building or not _imported_by(self.importers):
            return None
        return importlib.util.spec_from_loader(fullname, self, is_package=True)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return _AbsentModule(spec.name, self)

    def exec_module(self, module: ModuleType) -> None:
        return None


def _imported_by(package: str) -> bool:
    """Whether the code importing now (past the import machinery) is in `package`."""
    frame = inspect.currentframe()
    while frame is not None:
        name = str(frame.f_globals.get("__name__", ""))
        machinery = name.startswith("importlib") or name == __name__
        if not machinery and not frame.f_code.co_filename.startswith("<frozen"):
            return name == package or name.startswith(f"{package}.")
        frame = frame.f_back
    return False


class _AbsentModule(ModuleType):
    """A stand-in for a module not installed (`absent_dependencies_deferred`)."""

    def __init__(self, name: str, finder: _AbsentFinder) -> None:
        super().__init__(name)
        self._finder = finder

    def __getattr__(self, attribute: str) -> Any:
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        return _Absent(f"{self.__name__}.{attribute}", self._finder)


class _Absent:
    """Taken from an absent module: more of it while building, else an error."""

    def __init__(self, name: str, finder: _AbsentFinder) -> None:
        self._name = name
        self._finder = finder

    def __getattr__(self, attribute: str) -> Any:
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        return _Absent(f"{self._name}.{attribute}", self._finder)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._finder.building:
            return _Absent(f"{self._name}()", self._finder)
        top = self._name.partition(".")[0]
        raise AbsentDependencyError(
            f"No module named {top!r} (an optional dependency not installed here; "
            f"the scorer uses {self._name})",
            name=top,
        )


class AbsentDependencyError(ModuleNotFoundError):
    """The scorer used an optional dependency not installed here."""


class _EvalsOwnVerdict:
    def __repr__(self) -> str:
        return "EVALS_OWN_VERDICT"


EVALS_OWN_VERDICT: Any = _EvalsOwnVerdict()
"""A verdict only the eval's scorer can compute (an expression over its locals).

Its value is not checked but for being one (not NaN); its route, reason and
the judge's silence are.
"""


def assert_verdict(scored: list[Scored], outcome: str, value: Any, reason: str) -> None:
    """The router gave its verdict `value` (or its function of the sample), no judge."""
    for one in scored:
        assert one.raised is None, f"{outcome}: raised {one.raised!r}"
        assert one.score is not None
        assert one.state is not None
        if callable(value):
            value = value(one.state, one.state.target)
        if value is not EVALS_OWN_VERDICT:
            assert same_value(one.score.value, value), (outcome, one.score.value)
        else:  # a verdict still, not the unscored NaN
            assert not is_nan(one.score.value), (outcome, one.score.value)
        assert (one.score.reason, one.empty_outcome) == (reason, outcome)
        assert one.judge_calls == 0, f"{outcome}: the judge was called"


def assert_unscored(scored: list[Scored], outcome: str) -> None:
    """The router left the sample unscored (NaN), with no judge."""
    for one in scored:
        assert one.raised is None, f"{outcome}: raised {one.raised!r}"
        assert one.score is not None, outcome
        assert is_nan(one.score.value), (outcome, one.score.value)
        assert one.empty_outcome == outcome
        assert one.judge_calls == 0, f"{outcome}: the judge was called"


def assert_raised(scored: list[Scored], outcome: str, error: str) -> None:
    """The router raised `error` (its class name), with no judge."""
    for one in scored:
        assert type(one.raised).__name__ == error, f"{outcome}: {one.raised!r}"
        assert one.judge_calls == 0, f"{outcome}: the judge was called"


def assert_scored(
    scored: list[Scored], outcome: str, route: str, reason: str | None = None
) -> None:
    """The router gave the sample to the eval's scorer, as `route` gives it.

    The routed score is the scorer's own on the same sample (`Scored.own`):
    its value, and its ``reason`` and ``explanation`` on the ``score`` route;
    on ``score_tagged`` a failing score with no reason of its own gets
    `reason`, the route's, and an explanation. A passing score is the same on
    both routes, so only a failing one shows the tag. A non-answer is marked
    with its ``empty_outcome`` and its ``empty_route`` (`route`), an answer
    (`outcome` ``answered``) is not.

    The scorer may fail to score the offline sample only as its construct
    declares (`Construct.offline`) or for want of an optional dependency, and
    the routed scorer must then raise what the scorer raises; any other error
    of the scorer fails the test.
    """
    # imported here: the router's rule of a failing score; only the tests use it
    from empty_migrate.runtime.router import is_failing

    marked = None if outcome == "answered" else outcome
    for one in scored:
        own = one.own
        assert own is not None, f"{outcome}: the scorer is not routed"
        if own.raised is not None:
            assert _cannot_score_offline(own.raised, one.offline), (
                f"{outcome}: the eval's scorer raised {own.raised!r}"
            )
            assert _same_error(one.raised, own.raised), (outcome, one.raised)
            continue
        assert one.raised is None, f"{outcome}: raised {one.raised!r}"
        if own.score is None or one.score is None:
            assert one.score is own.score is None, (outcome, one.score)
            continue
        assert same_value(one.score.value, own.score.value), (outcome, one.score)
        assert one.empty_outcome == marked, (outcome, one.score.metadata)
        if one.empty_outcome is not None:
            routed = (one.score.metadata or {}).get("empty_route")
            assert routed == route, (outcome, routed)
        mine = own.score
        if route == "score_tagged" and mine.reason is None and is_failing(mine.value):
            assert one.score.reason == reason, (outcome, one.score.reason)
            assert one.score.explanation, f"{outcome}: the tag has no explanation"
            if mine.explanation:
                assert one.score.explanation == mine.explanation, outcome
        else:
            assert one.score.reason == mine.reason, (outcome, one.score.reason)
            assert one.score.explanation == mine.explanation, outcome


def _same_error(error: Exception | None, expected: Exception) -> bool:
    """The same class and message, object addresses aside."""
    if type(error) is not type(expected):
        return False
    return _ADDRESS.sub("0x", str(error)) == _ADDRESS.sub("0x", str(expected))


_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def _cannot_score_offline(error: Exception, offline: str | None) -> bool:
    """Whether the error is one the scorer is declared to raise offline."""
    classes = (offline or "").partition(":")[0].split(", ")
    return type(error).__name__ in classes or isinstance(error, ModuleNotFoundError)


def assert_metrics_accept(scored: list[Scored], keys: Sequence[str]) -> None:
    """Each routed score carries the sample metadata `keys` and its metrics compute."""
    for one in scored:
        assert one.score is not None
        assert one.state is not None
        for key in keys:
            assert (one.score.metadata or {}).get(key) == one.state.metadata[key], key
        sample = SampleScore(
            score=one.score, sample_id=1, sample_metadata=one.state.metadata
        )
        for metric, value_key in _metrics(one.scorer):
            metric([_projected(sample, value_key)] if value_key else [sample])


def _metrics(scorer: Scorer | None) -> list[tuple[Any, str | None]]:
    """Each metric of the scorer, with the value key it reads if it is keyed."""
    metrics = registry_info(scorer).metadata.get("metrics") or []
    found: list[tuple[Any, str | None]] = []
    for group in [metrics] if isinstance(metrics, dict) else metrics:
        if isinstance(group, dict):
            found += [(m, key) for key, ms in group.items() if key != "*" for m in ms]
        else:
            found.append((group, None))
    return found


def _projected(sample: SampleScore, key: str) -> SampleScore:
    """The sample with one key of its dict value, as Inspect gives a keyed metric."""
    value = sample.score.value
    if not isinstance(value, dict):
        raise ValueError(f"a metric keyed by {key!r} reads a dict value, not {value!r}")
    score = sample.score.model_copy(update={"value": value[key]})
    return sample.model_copy(update={"score": score})


def same_value(actual: Any, expected: Any) -> bool:
    """Equal score values, NaN equal to NaN (at any depth of a dict)."""
    if isinstance(actual, dict) and isinstance(expected, dict):
        return actual.keys() == expected.keys() and all(
            same_value(actual[k], expected[k]) for k in actual
        )
    return actual == expected or (is_nan(actual) and is_nan(expected))


def is_nan(value: Any) -> bool:
    """Whether a score value is ``Score.unscored()``'s NaN."""
    return isinstance(value, float) and math.isnan(value)


def build_scorer(
    module_name: str,
    name: str,
    construct: str,
    *,
    package: str | None = None,
    arguments: dict[str, Any] | None = None,
) -> Scorer | list[Scorer]:
    """The scorer as the eval's code builds it by default.

    For a ``task_scorer``, the ``scorer=`` expression of the ``Task(...)`` in
    the function `name` is evaluated as that function would evaluate it: its
    parameters bound to their defaults, and the statements of its body that
    the expression depends on run first; a parameter with no default takes
    the argument the eval's call of the function passes (a ``@task`` function
    calling a shared task template). A ``factory`` or ``shared_helper`` is
    called with no arguments when it needs none; otherwise the call the eval
    makes is evaluated the same way, in the function that makes it (a
    ``@task`` function of `package` first), and if no code calls it, as a
    ``@task`` of `package` builds it from its defaults or a run config
    (`_configured_scorers`: hle names its judges in YAML).

    Args:
        module_name: The module defining the construct.
        name: The factory, shared helper or task function.
        construct: ``factory``, ``shared_helper`` or ``task_scorer``.
        package: Where to look for the call of a factory that needs
            arguments: by default the eval package the module is in
            (``inspect_evals.<eval>``).
        arguments: A factory's arguments, given: it is called with them.

    Raises:
        Exception: Whatever building the scorer raises offline (a missing
            optional dependency, a download, a parameter with no default);
            ``ValueError`` when no expression to evaluate is found or it does
            not give scorers.
    """
    module = importlib.import_module(module_name)
    home = package or ".".join(module_name.split(".")[:2])
    if construct == "task_scorer":
        site = _with_callers_arguments(_task_scorer_site(module, name), home, name)
    else:
        factory = getattr(module, name)
        if arguments is not None:
            return _scorers(factory(**arguments), f"{name}(**{sorted(arguments)})")
        if not _required_parameters(factory):
            return _scorers(factory(), f"{name}()")
        try:
            site = _call_site(home, name)
        except _NoCall:
            return _configured_scorers(home, name, factory)
    return _scorers(site.evaluate(), site.text)


def _scorers(built: Any, text: str) -> Scorer | list[Scorer]:
    """What `text` built, if it is a scorer or a list of them."""
    scorers = built if isinstance(built, list) else [built]
    if not all(_is_scorer(s) for s in scorers):
        raise ValueError(f"{text} does not give scorers")
    return cast(Scorer | list[Scorer], built)


def _is_scorer(value: Any) -> bool:
    try:
        return registry_info(value).type == "scorer"
    except ValueError:  # not a registry object
        return False


@dataclass(frozen=True)
class _Site:
    """An expression inside a function of a module, to evaluate as it runs there."""

    module: ModuleType
    function: ast.FunctionDef | ast.AsyncFunctionDef
    expression: ast.expr
    source: str
    arguments: dict[str, Any] = field(default_factory=dict)
    """Arguments for the function's parameters, in place of their defaults."""

    @property
    def text(self) -> str:
        """The expression as written."""
        return ast.get_source_segment(self.source, self.expression) or "?"

    def evaluate(self) -> Any:
        """The expression's value, its function's defaults and needed lines run.

        The function is rebuilt with the same parameters and a body of the
        statements the expression needs, then the expression, and called with
        the site's `arguments` it takes in the module's namespace.
        """
        body = [*_needed_statements(self.function, self.expression)]
        body.append(ast.Return(self.expression))
        # Python 3.12 added type parameters, which it requires of a built node
        new: dict[str, Any] = {"type_params": []} if sys.version_info >= (3, 12) else {}
        probe = ast.FunctionDef(
            name="_probe_scorer",
            args=_keyword_only(self.function.args, _loaded(ast.Module(body, []))),
            body=body,
            decorator_list=[],
            returns=None,
            **new,
        )
        tree = ast.fix_missing_locations(ast.Module([probe], type_ignores=[]))
        namespace = dict(vars(self.module))
        # builtins.exec: inspect's eval may be imported by the module
        builtins.exec(compile(tree, str(self.module.__file__), "exec"), namespace)
        return _call_with(namespace["_probe_scorer"], self.arguments)


def _task_scorer_site(module: ModuleType, function: str) -> _Site:
    source = Path(str(module.__file__)).read_text(encoding="utf-8")
    for node in _functions(ast.parse(source), function):
        for call in ast.walk(node):
            if isinstance(call, ast.Call) and _called(call) == "Task":
                for keyword in call.keywords:
                    if keyword.arg == "scorer":
                        return _Site(module, node, keyword.value, source)
    raise ValueError(f"no Task(scorer=...) found in {function}")


def _call_site(package_name: str, factory: str) -> _Site:
    """Where the eval calls `factory`: in a ``@task`` function first."""
    root = _package_root(package_name)
    found: list[tuple[bool, str, str, ast.FunctionDef | ast.AsyncFunctionDef, ast.Call]]
    found = []
    for path in sorted(root.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        for node in _functions(ast.parse(source)):
            for call in ast.walk(node):
                if isinstance(call, ast.Call) and _called(call) == factory:
                    is_task = any(_named(d) == "task" for d in node.decorator_list)
                    found.append((not is_task, str(path), source, node, call))
    if not found:
        raise _NoCall(f"{factory} needs arguments and no call of it was found")
    _, where, source, node, call = min(found, key=lambda f: (f[0], f[1]))
    relative = Path(where).relative_to(root)
    module_name = ".".join([package_name, *relative.with_suffix("").parts])
    module = importlib.import_module(module_name.removesuffix(".__init__"))
    return _Site(module, node, call, source)


def _functions(
    tree: ast.AST, name: str | None = None
) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if name is None or node.name == name:
                yield node


def _needed_statements(
    function: ast.FunctionDef | ast.AsyncFunctionDef, expression: ast.expr
) -> list[ast.stmt]:
    """The statements before `expression` that bind the names it reads, in order."""
    needed = _loaded(expression)
    kept: list[ast.stmt] = []
    for statement in reversed(function.body):
        if statement.lineno >= expression.lineno or not needed & _stored(statement):
            continue
        kept.append(statement)
        needed |= _loaded(statement)
    return kept[::-1]


def _keyword_only(arguments: ast.arguments, needed: set[str]) -> ast.arguments:
    """The parameters among `needed`, keyword-only, each with its default if any."""
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults = [None] * (len(positional) - len(arguments.defaults))
    pairs = [
        *zip(positional, [*defaults, *arguments.defaults], strict=True),
        *zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True),
    ]
    kept = [(arg, default) for arg, default in pairs if arg.arg in needed]
    return ast.arguments(
        posonlyargs=[],
        args=[],
        kwonlyargs=[arg for arg, _ in kept],
        kw_defaults=[default for _, default in kept],
        defaults=[],
    )


def _loaded(node: ast.AST) -> set[str]:
    return {
        n.id
        for n in ast.walk(node)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }


def _stored(node: ast.AST) -> set[str]:
    return {
        n.id
        for n in ast.walk(node)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }


def _required_parameters(factory: Any) -> list[str]:
    signature = inspect.signature(inspect.unwrap(factory))
    return [
        p.name
        for p in signature.parameters.values()
        if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]


def _named(decorator: ast.expr) -> str:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    if isinstance(target, ast.Attribute):
        return target.attr
    return getattr(target, "id", "")


def _called(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


class _NoCall(ValueError):
    """No code of the package calls the function."""


def _call_with(function: Callable[..., Any], arguments: dict[str, Any]) -> Any:
    """`function` called with those of `arguments` it takes."""
    taken = inspect.signature(function).parameters
    return function(**{k: v for k, v in arguments.items() if k in taken})


def _with_callers_arguments(site: _Site, package_name: str, function: str) -> _Site:
    """`site`, its parameters with no default bound as the eval's call binds them.

    Only the parameters the scorer expression needs (agieval's
    ``task_template(dataset_name, ...)`` picks its scorer by ``dataset_name``),
    and only where some code of the package calls the function; else `site`
    as it is.
    """
    defined = getattr(site.module, function)
    wanted = set(_required_parameters(defined)) & _names_read(site)
    if not wanted:
        return site
    try:
        caller = _call_site(package_name, function)
    except _NoCall:
        return site
    return replace(site, arguments=_passed_arguments(caller, defined, wanted))


def _names_read(site: _Site) -> set[str]:
    """The names the expression and the statements it needs read."""
    needed = _needed_statements(site.function, site.expression)
    return _loaded(ast.Module([*needed, ast.Expr(site.expression)], []))


def _passed_arguments(
    caller: _Site, function: Callable[..., Any], wanted: set[str]
) -> dict[str, Any]:
    """The `wanted` arguments the call at `caller` passes to `function`, evaluated."""
    call = caller.expression
    assert isinstance(call, ast.Call)
    parameters = list(inspect.signature(inspect.unwrap(function)).parameters)
    passed = {
        parameters[i]: node
        for i, node in enumerate(call.args[: len(parameters)])
        if not isinstance(node, ast.Starred)
    }
    passed |= {k.arg: k.value for k in call.keywords if k.arg}
    chosen = {name: node for name, node in passed.items() if name in wanted}
    arguments = ast.Dict(
        keys=[ast.Constant(name) for name in chosen], values=list(chosen.values())
    )
    evaluated = replace(caller, expression=ast.copy_location(arguments, call))
    return cast(dict[str, Any], evaluated.evaluate())


GRADER_ROLE = "grader_role"
"""The factory parameter a run config's ``graders`` entry binds, one scorer each.

inspect_evals' ``scorers_from_spec`` convention (its ``GRADER_ROLE_PARAM``).
"""


def _configured_scorers(
    package_name: str, name: str, factory: Callable[..., Scorer]
) -> Scorer | list[Scorer]:
    """The factory's scorers as a run config of the package configures them.

    A run config (a YAML file of the package, as hle's ``run_configs/``) names
    a scorer in a spec, ``{scorer: <registered name>, args: {...}, graders:
    [...]}``; the first spec naming the factory `name` gives its arguments,
    and one scorer per grader role. The factory is called directly: the
    registered name's prefix depends on how the package is installed.

    Raises:
        ValueError: No run config names the factory.
    """
    for spec in _scorer_specs(package_name):
        if str(spec["scorer"]).split("/")[-1] != name:
            continue
        arguments = spec.get("args") or {}
        graders = spec.get("graders")
        if not graders:
            return _scorers(factory(**arguments), f"{name}(**{arguments})")
        built = [factory(**{GRADER_ROLE: role}, **arguments) for role in graders]
        return _scorers(built, f"{name} for {graders}")
    raise ValueError(
        f"{name} needs arguments, and neither a call of it nor a run config "
        "that names it was found"
    )


def _scorer_specs(package_name: str) -> Iterator[dict[str, Any]]:
    """Every mapping with a ``scorer`` name in the package's YAML files."""
    # imported here: inspect_ai depends on it; only a factory no code calls needs it
    import yaml

    root = _package_root(package_name)
    for path in sorted([*root.rglob("*.yaml"), *root.rglob("*.yml")]):
        try:
            document = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError:
            continue
        yield from _mappings_naming_a_scorer(document)


def _mappings_naming_a_scorer(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        if isinstance(node.get("scorer"), str):
            yield node
        for child in node.values():
            yield from _mappings_naming_a_scorer(child)
    elif isinstance(node, list):
        for child in node:
            yield from _mappings_naming_a_scorer(child)


def _package_root(package_name: str) -> Path:
    return Path(next(iter(importlib.import_module(package_name).__path__)))
