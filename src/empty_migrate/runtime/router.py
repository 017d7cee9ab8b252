"""Route a model's non-answers to the right scoring outcome.

A model under test can fail to answer in many ways: genuine silence, reasoning
cut off at ``max_tokens``, a final turn of tool calls, a refusal, a platform
content filter, a prompt that overflows the context window. Each provider
represents these differently, so scorers that read only ``output.completion``
score them inconsistently.

This module classifies the model's final output from the signals inspect_ai
really provides (choices, ``stop_reason``, ``stop_details``, refusal blocks,
reasoning, tool calls, the visible text and a few provider sentinels) and wraps
any scorer so that each non-answer takes one of Inspect's three routes: a
verdict on the model, ``Score.unscored()`` for an instrument failure, or a
raised error for a machinery failure.

Apart from ``empty_migrate.runtime.policy`` (the policy as data, re-exported here), it
depends only on ``inspect_ai`` and the standard library; the copy installed
into an eval repository has the policy module inlined.

Example:
    ```python
    from inspect_ai.scorer import INCORRECT

    scorer = route_empty_responses(
        xstest_scorer(), category="safety", refusal_verdict=INCORRECT
    )
    ```
"""

import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from functools import wraps
from typing import Any

from inspect_ai.log import transcript
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessageAssistant,
    ChatMessageTool,
    ContentReasoning,
    ContentText,
    ModelOutput,
)
from inspect_ai.scorer import (
    INCORRECT,
    NOANSWER,
    Score,
    Scorer,
    Target,
    Value,
)
from inspect_ai.solver import TaskState
from inspect_ai.util import registry_info

from empty_migrate.runtime.policy import (
    POLICY,
    Category,
    Outcome,
    Route,
    route_for,
    route_reason,
)

__all__ = [
    "POLICY",
    "Category",
    "Classification",
    "ContextOverflowError",
    "EmptyResponseError",
    "Located",
    "NonAnswerError",
    "Outcome",
    "OutputLocator",
    "ResponsePolicy",
    "Route",
    "assistant_outputs",
    "classify",
    "classify_output",
    "classify_outputs",
    "first_assistant_output",
    "is_failing",
    "last_assistant_output",
    "located_outputs",
    "metadata_output",
    "non_answer_score",
    "replayed_sample",
    "route_empty_responses",
    "route_for",
    "route_reason",
    "state_output",
    "store_output",
    "token_limit",
]


# The policy (runtime/policy.py, inlined here when installed)


_EXPLANATIONS: Mapping[Outcome, str] = {
    Outcome.EMPTY: "The model's final output has no visible text.",
    Outcome.REASONING_ONLY: "The model produced reasoning but no visible answer.",
    Outcome.TOOL_CALLS_ONLY: "The model's final turn holds tool calls but no answer.",
    Outcome.TRUNCATED: (
        "The output hit max_tokens before any visible text: the token budget was "
        "spent, most likely on reasoning."
    ),
    Outcome.REFUSED: "The model refused to answer.",
    Outcome.REFUSED_AFTER_PARTIAL: (
        "The model wrote some text and then refused; the text before the refusal "
        "is not an answer."
    ),
    Outcome.FILTERED: "A platform content filter blocked the response.",
    Outcome.OVERFLOW: "The prompt does not fit in the model's context window.",
    Outcome.NO_OUTPUT: "The model produced no output: there are no choices to score.",
}


# Classification


@dataclass(frozen=True)
class Classification:
    """The outcome of one model output, with the evidence that decided it.

    Attributes:
        outcome: The outcome class.
        signal: The provider signal that decided it, e.g. ``"refusal_block"``,
            ``"stop_reason:content_filter"`` or ``"sentinel:no_content"``.
        visible_text: The answer text a reader would see: text blocks that are
            not refusals, without ``<think>`` reasoning, stripped.
        flags: Refinements, e.g. ``"truncated_partial"`` (an answer cut at
            ``max_tokens`` or the context window), ``"filtered_partial"`` (an
            answer a platform filter stopped), ``"think_in_text"`` (reasoning
            tags removed from the text), ``"completion_rewritten"`` (a solver
            replaced ``completion``, and it was read instead of the message),
            ``"completion_without_choices"`` (the answer is only in
            ``completion``), ``"from_transcript"`` (the output slot was empty:
            the model's last turn was read from the transcript, see
            `state_output`) or ``"max_tokens_reached"`` (no visible text, and
            the output tokens reached the run's ``max_tokens`` whatever stop
            reason the provider reported).
    """

    outcome: Outcome
    signal: str
    visible_text: str = ""
    flags: frozenset[str] = field(default_factory=frozenset)

    @property
    def explanation(self) -> str:
        """A one-sentence human explanation, naming the deciding signal."""
        text = _EXPLANATIONS.get(self.outcome, "The model answered.")
        return f"{text} (signal: {self.signal})"


NO_CONTENT_SENTINEL = "(no content)"
MALFORMED_FUNCTION_CALL_PREFIX = "I seem to have had trouble calling a function"

_THINK_BLOCK = re.compile(r"<think\b[^>]*>.*?</think>", re.DOTALL)
_THINK_OPEN = re.compile(r"<think\b[^>]*>", re.DOTALL)
_THINK_CLOSE = "</think>"


def classify(output: ModelOutput, *, max_tokens: int | None = None) -> Outcome:
    """Classify a model's final output into one `Outcome`.

    Args:
        output: The model under test's output (usually ``state.output``).
        max_tokens: The run's output token limit, if known (`classify_output`).

    Returns:
        The outcome class; see `classify_output` for the deciding signal.
    """
    return classify_output(output, max_tokens=max_tokens).outcome


def classify_output(
    output: ModelOutput, *, max_tokens: int | None = None
) -> Classification:
    """Classify a model's final output, keeping the evidence.

    The first matching rule wins: no choices, context overflow, a refusal by
    the model, a platform filter, truncation, tool calls, reasoning, silence,
    and finally an answer. Refusals are read from refusal blocks and refusal
    stop details, never by matching the model's prose. Visible text is an
    answer wherever it is: in ``output.completion`` when a solver wrote it
    there with no choices, and before a length cut or a platform filter when
    the provider reports that the model generated it.

    A stop with no visible text whose output tokens reach `max_tokens` is
    truncated whatever stop reason the provider reported (some report
    ``stop`` for a cut at the limit).

    Args:
        output: The model under test's output.
        max_tokens: The run's output token limit, if known (`token_limit`).

    Returns:
        The `Classification`: outcome, deciding signal, visible text, flags.
    """
    found = _classified(output, max_tokens)
    if _found_in_transcript(output):
        return replace(found, flags=found.flags | {"from_transcript"})
    return found


def _classified(output: ModelOutput, max_tokens: int | None) -> Classification:
    if not isinstance(output, ModelOutput) or not output.choices:
        return _without_choices(output)
    choice = output.choices[0]
    visible, flags = _visible_text(output, choice.message)
    if choice.stop_reason == "model_length":
        return _partial_answer(output, visible, flags, "truncated_partial") or (
            Classification(Outcome.OVERFLOW, "stop_reason:model_length")
        )
    return (
        _refusal(choice, visible, flags)
        or _filter(output, choice, visible, flags)
        or _non_answer(output, choice, visible, flags, max_tokens)
        or _answer(choice, visible, flags)
    )


def _without_choices(output: ModelOutput) -> Classification:
    # solvers (react's submit, browse_comp's browsing solver) and test doubles
    # write the answer straight into completion, with no choices behind it
    completion = getattr(output, "completion", None)
    text = _strip_think(completion if isinstance(completion, str) else "").strip()
    if text:
        flags = frozenset({"completion_without_choices"})
        return Classification(Outcome.ANSWERED, "completion", text, flags)
    return Classification(Outcome.NO_OUTPUT, "no_choices")


def _visible_text(
    output: ModelOutput, message: ChatMessageAssistant
) -> tuple[str, frozenset[str]]:
    flags: set[str] = set()
    text = _message_text(message)
    if output.completion and output.completion != message.text:
        # a solver (react's submit, a multi-turn solver) replaced the completion:
        # that is the answer the scorer will read
        text = output.completion
        flags.add("completion_rewritten")
    stripped = _strip_think(text)
    if stripped != text:
        flags.add("think_in_text")
    return stripped.strip(), frozenset(flags)


def _message_text(message: ChatMessageAssistant) -> str:
    if isinstance(message.content, str):
        return message.content
    return "\n".join(
        part.text
        for part in message.content
        if isinstance(part, ContentText) and not part.refusal
    )


def _strip_think(text: str) -> str:
    text = _THINK_BLOCK.sub("", text)
    unterminated = _THINK_OPEN.search(text)
    if unterminated:
        text = text[: unterminated.start()]
    if _THINK_CLOSE in text:
        # the chat template pre-filled <think>, so only the close tag is in the text
        text = text.rsplit(_THINK_CLOSE, 1)[1]
    return text


def _refusal(
    choice: ChatCompletionChoice, visible: str, flags: frozenset[str]
) -> Classification | None:
    if _has_refusal_block(choice.message):
        signal = "refusal_block"
    elif _declares_refusal(choice) and not _is_error_as_content(choice):
        signal = "stop_details:refusal"
    else:
        return None
    outcome = Outcome.REFUSED_AFTER_PARTIAL if visible else Outcome.REFUSED
    return Classification(outcome, signal, visible, flags)


def _has_refusal_block(message: ChatMessageAssistant) -> bool:
    return not isinstance(message.content, str) and any(
        isinstance(part, ContentText) and part.refusal for part in message.content
    )


def _declares_refusal(choice: ChatCompletionChoice) -> bool:
    details = choice.stop_details
    return (
        choice.stop_reason == "content_filter"
        and details is not None
        and details.type == "refusal"
    )


def _is_error_as_content(choice: ChatCompletionChoice) -> bool:
    # OpenAI policy errors and Grok's PERMISSION_DENIED become output whose text
    # *is* the error message, repeated as the refusal explanation: the platform
    # blocked the request, the model never answered it
    explanation = choice.stop_details.explanation if choice.stop_details else None
    return bool(explanation and explanation.strip() == choice.message.text.strip())


def _filter(
    output: ModelOutput,
    choice: ChatCompletionChoice,
    visible: str,
    flags: frozenset[str],
) -> Classification | None:
    if _is_error_as_content(choice) and choice.stop_reason == "content_filter":
        signal = "api_error"
    elif choice.stop_reason == "content_filter":
        partial = _partial_answer(output, visible, flags, "filtered_partial")
        if partial:
            return partial
        signal = "stop_reason:content_filter"
    elif output.error is not None:
        # documented as "error message in the case of content moderation refusals"
        signal = "output.error"
    else:
        return None
    return Classification(Outcome.FILTERED, signal, visible, flags)


def _partial_answer(
    output: ModelOutput, visible: str, flags: frozenset[str], flag: str
) -> Classification | None:
    """The text before a length cut or a filter, if the model generated it."""
    if visible and _generated_by_model(output):
        return Classification(Outcome.ANSWERED, "visible_text", visible, flags | {flag})
    return None


def _generated_by_model(output: ModelOutput) -> bool:
    # adapters turn API errors (a prompt too long, a policy block) into output
    # whose text is the error message, with no usage or with output.error set;
    # guardrails and prompt blocks replace the text and report 0 output tokens
    usage = output.usage
    return output.error is None and usage is not None and usage.output_tokens > 0


def _non_answer(
    output: ModelOutput,
    choice: ChatCompletionChoice,
    visible: str,
    flags: frozenset[str],
    max_tokens: int | None,
) -> Classification | None:
    sentinel = _provider_sentinel(choice, visible)
    if visible and not sentinel:
        return None
    if choice.stop_reason == "max_tokens":
        return Classification(Outcome.TRUNCATED, "stop_reason:max_tokens", "", flags)
    if _reached(output, max_tokens):
        flags = flags | {"max_tokens_reached"}
        return Classification(Outcome.TRUNCATED, "usage:max_tokens", "", flags)
    if choice.message.tool_calls:
        return Classification(Outcome.TOOL_CALLS_ONLY, "tool_calls", "", flags)
    if _has_reasoning(choice.message) or "think_in_text" in flags:
        return Classification(Outcome.REASONING_ONLY, "reasoning", "", flags)
    return Classification(Outcome.EMPTY, sentinel or "no_visible_text", "", flags)


def _reached(output: ModelOutput, max_tokens: int | None) -> bool:
    usage = output.usage
    if not max_tokens or usage is None:
        return False
    return usage.output_tokens >= max_tokens


def _provider_sentinel(choice: ChatCompletionChoice, visible: str) -> str | None:
    if visible == NO_CONTENT_SENTINEL:
        return "sentinel:no_content"
    if choice.stop_reason == "unknown" and visible.startswith(
        MALFORMED_FUNCTION_CALL_PREFIX
    ):
        return "sentinel:malformed_function_call"
    return None


def _has_reasoning(message: ChatMessageAssistant) -> bool:
    return not isinstance(message.content, str) and any(
        isinstance(part, ContentReasoning) for part in message.content
    )


def _answer(
    choice: ChatCompletionChoice, visible: str, flags: frozenset[str]
) -> Classification:
    if choice.stop_reason == "max_tokens":
        flags = flags | {"truncated_partial"}
    return Classification(Outcome.ANSWERED, "visible_text", visible, flags)


# Locating the model under test's output


Located = ModelOutput | Sequence[ModelOutput] | None
"""What a locator finds: one output, several (per turn, per fork), or nothing."""

OutputLocator = Callable[[TaskState], Located]
"""Finds the model under test's output, or outputs, in a task state.

Returns None (or no outputs) where nothing was recorded there (a scorer called
without the solver that saves it): the router then has no evidence and leaves
the sample to the scorer. A locator that returns several outputs (one per
turn, per fork or per elicitation) lets the router decide the sample only when
every one of them is a non-answer (`classify_outputs`).
"""


def state_output(state: TaskState) -> ModelOutput | None:
    """The default locator: the final answer of the model under test.

    Found by one rule, wherever the model left it:

    1. the output slot, ``state.output``, when it holds choices, or text in
       ``completion`` a solver wrote;
    2. otherwise the model under test's last turn in the transcript: its last
       assistant message in ``state.messages`` or, when no messages were kept,
       its last model call. A solver that keeps its answers elsewhere, or an
       agent that leaves the slot empty, still answered (or gave up) there. The
       turn's own output is read when a model call of the transcript produced
       it (stop reason and usage kept); its classification is flagged
       ``from_transcript``;
    3. otherwise the empty slot: the model under test produced nothing at all
       (``no_output``).
    """
    slot = getattr(state, "output", None)
    if not isinstance(slot, ModelOutput) or _holds_answer(slot):
        return slot
    turn = _last_turn(state)
    return turn if turn is not None else slot


def _holds_answer(output: ModelOutput) -> bool:
    return bool(output.choices) or bool(_strip_think(output.completion or "").strip())


_FOUND_IN = "empty_found_in"


def _found_in_transcript(output: Any) -> bool:
    metadata = getattr(output, "metadata", None)
    return isinstance(metadata, Mapping) and metadata.get(_FOUND_IN) == "transcript"


def _last_turn(state: TaskState) -> ModelOutput | None:
    messages = getattr(state, "messages", None) or []
    turns = [m for m in messages if isinstance(m, ChatMessageAssistant)]
    if turns:
        return _from_transcript(_output_of(turns[-1]))
    calls = _model_calls(state)
    return _from_transcript(calls[-1].output.model_copy()) if calls else None


def _from_transcript(output: ModelOutput) -> ModelOutput:
    output.metadata = {**(output.metadata or {}), _FOUND_IN: "transcript"}
    return output


def _output_of(message: ChatMessageAssistant) -> ModelOutput:
    """The output a model call of the transcript gave as `message`, or a rebuilt one."""
    call = _call_that_gave(message.id)
    if call is not None:
        output: ModelOutput = call.output.model_copy()
        return output
    return ModelOutput(
        model=message.model or "",
        choices=[ChatCompletionChoice(message=message, stop_reason="unknown")],
    )


def _model_calls(state: TaskState) -> list[Any]:
    """The model under test's calls in the sample's transcript, before scoring."""
    model = str(getattr(state, "model", "") or "")
    events = _sample_events()
    if _REPLAYED.get()[0] is None and not _opens_sample(events, state):
        # outside a running sample, the transcript is the process's own
        return []
    calls = []
    for event in events:
        if _starts_scoring(event):
            break
        if _is_model_call(event) and event.output.choices and event.model == model:
            calls.append(event)
    return calls


def _opens_sample(events: Sequence[Any], state: TaskState) -> bool:
    # a sample's transcript opens (after its init span) with its sample_init
    opening = (e for e in events[:3] if getattr(e, "event", None) == "sample_init")
    sample = getattr(next(opening, None), "sample", None)
    return sample is not None and sample.id == getattr(state, "sample_id", None)


def _is_model_call(event: Any) -> bool:
    # read by shape: ModelEvent has moved between modules across releases
    return getattr(event, "event", None) == "model" and isinstance(
        getattr(event, "output", None), ModelOutput
    )


def _starts_scoring(event: Any) -> bool:
    kind = getattr(event, "event", None)
    scoring = getattr(event, "type", None) in ("scorers", "scorer")
    return kind == "score" or (kind in ("span_begin", "step") and scoring)


def _message_id(output: ModelOutput) -> str | None:
    return output.choices[0].message.id if output.choices else None


def token_limit(output: ModelOutput) -> int | None:
    """The ``max_tokens`` the run generated `output` under, if known.

    Read from the model call of the sample's transcript that produced the
    output (its generate config); in a replayed log (`replayed_sample`), else
    from the eval's generate config. None when no call is found: the public
    API exposes no active generate config to a scorer.
    """
    produced = _message_id(output) if isinstance(output, ModelOutput) else None
    call = _call_that_gave(produced)
    limit = getattr(getattr(call, "config", None), "max_tokens", None)
    return int(limit) if limit else _REPLAYED.get()[1]


def _call_that_gave(message_id: str | None) -> Any:
    """The transcript's model call whose output is the message `message_id`."""
    if message_id is None:
        return None
    for event in reversed(_sample_events()):
        if _is_model_call(event) and _message_id(event.output) == message_id:
            return event
    return None


_REPLAYED: ContextVar[tuple[Sequence[Any] | None, int | None]] = ContextVar(
    "empty_response_replayed", default=(None, None)
)


@contextmanager
def replayed_sample(
    events: Sequence[Any], max_tokens: int | None = None
) -> Iterator[None]:
    """Read a logged sample's transcript as the router reads a live one.

    Within it, `state_output` and `token_limit` read `events` (a logged
    sample's events) in place of the running sample's transcript, and
    `max_tokens` (the eval's generate config) where no model call says.
    """
    reset = _REPLAYED.set((events, max_tokens))
    try:
        yield
    finally:
        _REPLAYED.reset(reset)


def _sample_events() -> Sequence[Any]:
    replayed = _REPLAYED.get()[0]
    if replayed is not None:
        return replayed
    return transcript().events


def last_assistant_output(state: TaskState) -> ModelOutput | None:
    """Rebuild an output from the last assistant message in ``state.messages``.

    For evals whose solver replaces ``state.output`` with a judge's output. The
    message keeps its refusal blocks, reasoning and tool calls, but the stop
    reason is lost, so truncation and filter stops read as ``unknown``. None
    if no assistant message was recorded.
    """
    outputs = assistant_outputs(state)
    return outputs[-1] if outputs else None


def first_assistant_output(state: TaskState) -> ModelOutput | None:
    """Rebuild an output from the first assistant message in ``state.messages``.

    For multi-turn evals whose first answer decides the sample (later turns
    react to it). As `last_assistant_output`, the stop reason is lost.
    """
    outputs = assistant_outputs(state)
    return outputs[0] if outputs else None


def assistant_outputs(state: TaskState) -> list[ModelOutput]:
    """Every assistant message in ``state.messages``, each as an output.

    For multi-turn evals that score every turn (one answer per subproblem).
    Stop reasons are lost, as in `last_assistant_output`.
    """
    return [
        ModelOutput(
            model=message.model or "",
            choices=[ChatCompletionChoice(message=message, stop_reason="unknown")],
        )
        for message in getattr(state, "messages", [])
        if isinstance(message, ChatMessageAssistant)
    ]


def store_output(*keys: str) -> OutputLocator:
    """A locator reading what a solver saved in the sample store.

    Each key may hold a `ModelOutput` (or its dump), a list of them, or text.
    With one key holding one output, the locator returns that output;
    otherwise it returns every output found under the keys, in order.

    Args:
        keys: The store keys the solver wrote the model under test's outputs to.
    """

    def locate(state: TaskState) -> Located:
        return _gathered(state.store.get, keys, "state.store")

    return locate


def metadata_output(*keys: str) -> OutputLocator:
    """A locator reading what a solver saved in sample metadata.

    As `store_output`: outputs, lists of them, or text (forked generations
    kept as strings).

    Args:
        keys: The metadata keys the solver wrote the model under test's outputs to.
    """

    def locate(state: TaskState) -> Located:
        return _gathered(state.metadata.get, keys, "state.metadata")

    return locate


def _gathered(read: Callable[[str], Any], keys: Sequence[str], where: str) -> Located:
    values = {key: read(key) for key in keys}
    if len(keys) == 1 and not isinstance(values[keys[0]], list):
        return _as_output(values[keys[0]], f"{where}[{keys[0]!r}]")
    return [
        output
        for key, value in values.items()
        for item in (value if isinstance(value, list) else [value])
        if (output := _as_output(item, f"{where}[{key!r}]")) is not None
    ]


def _as_output(value: Any, where: str) -> ModelOutput | None:
    if value is None or isinstance(value, ModelOutput):
        return value
    if isinstance(value, Mapping):
        return ModelOutput.model_validate(value)
    if isinstance(value, str):
        # text kept without its output: only the words are left to classify
        return ModelOutput.from_content(model="", content=value)
    raise TypeError(f"{where} holds {type(value).__name__}, not a ModelOutput")


# Errors


class NonAnswerError(RuntimeError):
    """The model under test's output cannot be scored: a machinery failure.

    Attributes:
        classification: The classification that routed the sample here.
        retryable: Whether running the sample again can succeed.
    """

    retryable = False

    def __init__(self, classification: Classification) -> None:
        super().__init__(classification.explanation)
        self.classification = classification


class EmptyResponseError(NonAnswerError):
    """Nothing was generated: retry the sample (``retry_on_error``)."""

    retryable = True


class ContextOverflowError(NonAnswerError):
    """The prompt does not fit the model's context: fix the configuration."""


# Routing


VerdictValue = Value | Callable[[TaskState, Target], Value]
"""A verdict, or a function of the sample that returns one (per-sample polarity)."""

MetadataValue = Mapping[str, Any] | Callable[[TaskState, Target], Mapping[str, Any]]
"""Score metadata, or a function of the sample that returns it."""


def route_empty_responses(
    scorer: Scorer,
    *,
    category: Category | str,
    refusal_verdict: VerdictValue | None = None,
    no_answer_verdict: VerdictValue = NOANSWER,
    output: OutputLocator = state_output,
    overrides: Mapping[Outcome | str, Route | str] | None = None,
    copy_metadata: bool | Sequence[str] = False,
    verdict_metadata: MetadataValue | None = None,
) -> Scorer:
    """Wrap a scorer so the model's non-answers follow the empty-response policy.

    The wrapped scorer (and so its judge) is called only where the policy
    routes an outcome to it; otherwise the routed scorer returns a verdict, an
    unscored score or raises. Every score the router writes carries a
    ``reason`` from Inspect's vocabulary, an ``explanation`` and
    ``metadata["empty_outcome"]``. The result keeps the wrapped scorer's
    registry name, metrics and params, so it can go straight to
    ``Task(scorer=...)``.

    Args:
        scorer: The scorer to wrap (made by a ``@scorer`` factory).
        category: ``qa``, ``model_graded``, ``safety`` or ``agentic``.
        refusal_verdict: The value this scorer gives a full refusal, in its own
            value shape (``INCORRECT``, ``0.0``, a dict); required for
            ``safety``. May be a function of ``(state, target)``.
        no_answer_verdict: The value for a non-answer in ``qa`` and
            ``model_graded``; ``NOANSWER`` by default. Dict-valued scorers must
            pass a dict with every key their metrics read. May be a function
            of ``(state, target)``.
        output: Where the model under test's output is, when not
            ``state.output``. A locator that finds several outputs (one per
            turn or per fork) routes the sample only when every one of them
            is a non-answer (`classify_outputs`).
        overrides: Per-eval departures from `POLICY`, e.g.
            ``{"overflow": "no_answer"}`` for a long-context eval.
        copy_metadata: Sample metadata to copy into every score the router
            writes, for metrics that read it from the score as they do from
            the eval's own scores: ``True`` for all of it, or the keys.
        verdict_metadata: Score metadata the eval's metrics read from every
            score (``{"verdict": "refusal"}`` for a metric that counts
            refusals), added to each verdict the router writes. May be a
            function of ``(state, target)``.

    Returns:
        The routed scorer.

    Raises:
        ValueError: If the category or an override is unknown, ``safety`` has
            no ``refusal_verdict``, or a verdict lacks keys the metrics need.
    """
    policy = ResponsePolicy(
        category,
        refusal_verdict=refusal_verdict,
        no_answer_verdict=no_answer_verdict,
        overrides=overrides,
        copy_metadata=copy_metadata,
        verdict_metadata=verdict_metadata,
    )
    _check_verdict_keys(scorer, *policy.verdicts_used())

    @wraps(scorer)
    async def score(state: TaskState, target: Target) -> Score | None:
        outputs = located_outputs(output(state))
        if not outputs:
            # nothing recorded where the output should be, or a test double:
            # no provider signal to read, so the scorer decides as it did
            return await scorer(state, target)
        found = classify_outputs(outputs)
        route = policy.route(found, state)
        if route in (Route.SCORE, Route.SCORE_TAGGED):
            result = await scorer(state, target)
            return _annotate(result, found, route)
        return policy.score(found, route, outputs[-1], state, target)

    return score


def non_answer_score(
    output: ModelOutput,
    state: TaskState,
    target: Target,
    policy: "ResponsePolicy",
) -> Score | None:
    """The policy's score for one of several responses a scorer reads itself.

    For scorers that judge each response (each turn, fork or elicitation) in a
    loop of their own: call it before the judge, and use the returned score
    (its ``value``, ``reason`` and ``metadata["empty_outcome"]``) in place of
    the judge's reading.

    Args:
        output: One response of the model under test.
        state: The sample's task state.
        target: The sample's target.
        policy: The eval's `ResponsePolicy`.

    Returns:
        The verdict or unscored score the policy gives a non-answer, or None
        when the response goes to the scorer (an answer, or a route that lets
        the scorer decide).

    Raises:
        NonAnswerError: Where the policy raises (an overflow, no output).
    """
    found = classify_outputs([output])
    route = policy.route(found, state)
    if route in (Route.SCORE, Route.SCORE_TAGGED):
        return None
    return policy.score(found, route, output, state, target)


def classify_outputs(outputs: Sequence[ModelOutput]) -> Classification:
    """Classify a sample the model answered in several outputs.

    The sample is an answer if any output is (its scorer can grade what was
    said); otherwise it is a non-answer of the class of its last output, the
    model's final word. Each output is classified under the token limit it was
    generated with (`token_limit`).

    Args:
        outputs: The model under test's outputs, in order; at least one.
    """
    found = [classify_output(o, max_tokens=token_limit(o)) for o in outputs]
    answered = [c for c in found if c.outcome == Outcome.ANSWERED]
    return answered[0] if answered else found[-1]


@dataclass(frozen=True)
class ResponsePolicy:
    """One eval's empty-response policy: its category, verdicts and departures.

    Built once per scorer; `route_empty_responses` and `non_answer_score` use
    it to route each classified output.

    Args:
        category: ``qa``, ``model_graded``, ``safety`` or ``agentic``.
        refusal_verdict: As in `route_empty_responses`.
        no_answer_verdict: As in `route_empty_responses`.
        overrides: As in `route_empty_responses`.
        copy_metadata: As in `route_empty_responses`.
        verdict_metadata: As in `route_empty_responses`.

    Raises:
        ValueError: If the category or an override is unknown, or ``safety``
            has no ``refusal_verdict``.
    """

    category: Category | str
    refusal_verdict: VerdictValue | None = None
    no_answer_verdict: VerdictValue = NOANSWER
    overrides: Mapping[Outcome | str, Route | str] | None = None
    copy_metadata: bool | Sequence[str] = False
    verdict_metadata: MetadataValue | None = None
    routes: dict[Outcome, Route] = field(init=False, repr=False)
    agent_routes: dict[Outcome, Route] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        category = Category(self.category)
        routes = _resolve_routes(category, self.overrides)
        agent = _resolve_routes(category, self.overrides, after_trajectory=True)
        if Route.REFUSAL_VERDICT in routes.values() and self.refusal_verdict is None:
            raise ValueError(
                f"category={str(self.category)!r} needs refusal_verdict=: the value "
                "this scorer gives a full refusal (e.g. INCORRECT, 0.0)"
            )
        object.__setattr__(self, "routes", routes)
        object.__setattr__(self, "agent_routes", agent)

    def verdicts_used(self) -> list[VerdictValue | None]:
        """The verdicts some outcome of this policy routes to."""
        used = set(self.routes.values())
        return [verdict for route, verdict in self._verdicts().items() if route in used]

    def route(self, found: Classification, state: TaskState) -> Route:
        """The route of a classified output, after an agent trajectory if any."""
        route = self.routes[found.outcome]
        if route != self.agent_routes[found.outcome] and _ran_tools(state):
            return self.agent_routes[found.outcome]
        return route

    def score(
        self,
        found: Classification,
        route: Route,
        output: ModelOutput,
        state: TaskState,
        target: Target,
    ) -> Score:
        """The score the router writes for a route other than the scorer's.

        Raises:
            NonAnswerError: For the raise route.
        """
        if route == Route.RAISE:
            raise _error_for(found)
        fields = _score_fields(found, output, state, self.copy_metadata)
        if route == Route.UNSCORED:
            return Score.unscored(**fields)
        extra = self.verdict_metadata
        extra = extra(state, target) if callable(extra) else extra or {}
        fields["metadata"] = {**extra, **fields["metadata"]}
        verdict = self._verdicts()[route]
        return Score(value=_resolve(verdict, state, target), **fields)

    def _verdicts(self) -> dict[Route, VerdictValue | None]:
        return {
            Route.NO_ANSWER: self.no_answer_verdict,
            Route.REFUSAL_VERDICT: self.refusal_verdict,
        }


def located_outputs(located: Located) -> list[ModelOutput]:
    """What a locator found, as a list of outputs (empty if it found none).

    Anything that is not a `ModelOutput` (a test double) is left out: there is
    no provider signal to read in it.
    """
    if isinstance(located, ModelOutput):
        return [located]
    if isinstance(located, Sequence):
        return [output for output in located if isinstance(output, ModelOutput)]
    return []


def _ran_tools(state: TaskState) -> bool:
    """Whether the model ran tools before its final output: an agent trajectory."""
    return any(isinstance(m, ChatMessageTool) for m in getattr(state, "messages", []))


def _resolve_routes(
    category: Category,
    overrides: Mapping[Outcome | str, Route | str] | None,
    after_trajectory: bool = False,
) -> dict[Outcome, Route]:
    checked: dict[Outcome, Route] = {}
    for outcome, route in (overrides or {}).items():
        try:
            checked[Outcome(outcome)] = Route(route)
        except ValueError as error:
            raise ValueError(f"invalid empty-response override: {error}") from None
    return {
        outcome: route_for(
            category, outcome, checked, after_trajectory=after_trajectory
        )
        for outcome in Outcome
    }


def _check_verdict_keys(scorer: Scorer, *verdicts: VerdictValue | None) -> None:
    needed = _metric_keys(scorer)
    if not needed:
        return
    for verdict in verdicts:
        if verdict is None or callable(verdict):
            continue
        keys = set(verdict) if isinstance(verdict, Mapping) else set()
        if missing := needed - keys:
            raise ValueError(
                f"scorer {registry_info(scorer).name!r} has dict-valued metrics; "
                f"verdict {verdict!r} lacks keys {sorted(missing)}: pass a dict "
                "with every key (NaN where unknown)"
            )


def _metric_keys(scorer: Scorer) -> set[str]:
    try:
        metrics = registry_info(scorer).metadata.get("metrics")
    except ValueError:
        return set()
    groups = [metrics] if isinstance(metrics, Mapping) else list(metrics or [])
    return {
        key
        for group in groups
        if isinstance(group, Mapping)
        for key in group
        if "*" not in key
    }


def _error_for(found: Classification) -> NonAnswerError:
    if found.outcome == Outcome.OVERFLOW:
        return ContextOverflowError(found)
    return EmptyResponseError(found)


def _resolve(verdict: VerdictValue | None, state: TaskState, target: Target) -> Value:
    value = verdict(state, target) if callable(verdict) else verdict
    if value is None:
        raise ValueError("a refusal verdict function returned None")
    return value


def _score_fields(
    found: Classification,
    output: ModelOutput,
    state: TaskState,
    copy_metadata: bool | Sequence[str],
) -> dict[str, Any]:
    sample = getattr(state, "metadata", None) or {}
    keys = sample if copy_metadata is True else copy_metadata or []
    return {
        "answer": output.completion,
        "explanation": found.explanation,
        "reason": route_reason(found.outcome),
        "metadata": {
            **{key: sample[key] for key in keys if key in sample},
            **_outcome_metadata(found),
        },
    }


_PARTIAL_FLAGS = frozenset({"truncated_partial", "filtered_partial"})


def _outcome_metadata(found: Classification) -> dict[str, Any]:
    metadata: dict[str, Any] = {
        "empty_outcome": str(found.outcome),
        "empty_signal": found.signal,
    }
    metadata |= dict.fromkeys(sorted(found.flags & _PARTIAL_FLAGS), True)
    return metadata


def _annotate(
    result: Score | None, found: Classification, route: Route
) -> Score | None:
    """The scorer's own score of a non-answer, marked with its class and route.

    ``empty_route`` says whether the router gave the sample to the scorer
    tagged or not, which the score itself shows only when it fails with no
    reason of its own.
    """
    plain_answer = found.outcome == Outcome.ANSWERED and not (
        found.flags & _PARTIAL_FLAGS
    )
    if result is None or plain_answer:
        return result
    annotated = result.model_copy(deep=True)
    annotated.metadata = {
        **(annotated.metadata or {}),
        **_outcome_metadata(found),
        "empty_route": str(route),
    }
    tag = route == Route.SCORE_TAGGED
    if tag and annotated.reason is None and is_failing(annotated.value):
        annotated.reason = route_reason(found.outcome)
        annotated.explanation = annotated.explanation or found.explanation
    return annotated


def is_failing(value: Value | None) -> bool:
    """Whether a score fails: the scores a tagged route marks with its reason.

    ``INCORRECT``, ``NOANSWER``, zero, or a dict or list of nothing but those.
    """
    if isinstance(value, str):
        return value in (INCORRECT, NOANSWER)
    if isinstance(value, bool | int | float):
        return not math.isnan(value) and value == 0
    if isinstance(value, Mapping):
        return bool(value) and all(is_failing(v) for v in value.values())
    if isinstance(value, list | tuple):
        return bool(value) and all(is_failing(v) for v in value)
    return False
