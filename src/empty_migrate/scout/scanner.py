"""The `empty_outcome` scanner: each transcript's row of ``empty-migrate outcomes``.

Scout hands a scanner a transcript's messages and events; the outcome of a
sample also depends on what Scout's transcript leaves out: the sample's output
slot (its stop reason, usage and choices), its store, and the run's generate
config, where an eval may keep the model's answer and its token limit. So the
scanner classifies the sample in its eval log (the transcript's
``source_uri``) with `log_outcomes`, the function ``outcomes`` reads logs
with, at the answer locations ``outcomes`` uses (`outcome_locations`): one
classifier, two front ends. A log is classified once per process, on its
first transcript, and its rows kept while the scan goes on.

Attached to a live ``eval(..., scanner=[empty_outcome()])``, the scanner runs
as each sample completes, before the log may hold it (Inspect writes samples
in batches, ``log_buffer``). There it classifies the sample the eval is
running, as the log will record it (`running_sample`), with the log's
header (its eval spec, written when the run starts) and `located_outcome`,
the classifier `log_outcomes` calls for each sample.

A transcript database built from logs keeps each transcript's log as its
``source_uri``, and the scanner reads the sample there: the logs must stay
where they were read. Scout's ``as_scorer`` gives a scanner a transcript
that names no log, which this scanner refuses (`NotInEvalLog`): attach it to
the eval instead.

Every transcript gets a result, not only the non-answers. Inspect's scanner
convention is sparse findings, and Scout counts as its "results" only the
results whose value is set; but a Result whose value is None is still written
as a row of the scan (Scout's own `grep_scanner` gives 0 for no match). So
the value is the outcome class of a non-answer (``empty``, ``refused``...),
and None for an answer, which keeps Scout's count of results to the
non-answers, while the scan keeps one row per transcript, answers included:
the rows ``outcomes`` lists, each in the result's metadata as the row
``outcomes --format json`` writes (`outcome_row`), under the same keys.
Scout 0.6.1 writes a result's metadata as one JSON column of its data frames
(``metadata``), and has no way for a scanner to make its keys columns.
"""

import os
from collections.abc import Sequence
from functools import lru_cache

from inspect_ai.event import SampleLimitEvent
from inspect_ai.log import EvalError, EvalLog, EvalSample, EvalSampleLimit
from inspect_scout import Result, Scanner, Transcript, scanner

from empty_migrate.cli.common import outcome_locations
from empty_migrate.logs.outcomes import (
    AnswerLocation,
    LogReadError,
    SampleOutcome,
    located_outcome,
    log_outcomes,
    outcome_row,
    read_header,
)
from empty_migrate.registry import EVALS_DIR
from empty_migrate.runtime.policy import Outcome
from empty_migrate.runtime.router import Classification
from empty_migrate.testing.inspect_internals import sample_active, sample_state

EVAL_LOG = "eval_log"
"""Scout's ``source_type`` of a transcript read from an Inspect eval log."""


@scanner(messages="all", metadata=False)
def empty_outcome() -> Scanner[Transcript]:
    """The outcome class of each sample's final answer, as ``outcomes`` reads it.

    Returns:
        A scanner whose result for each transcript has the outcome class of a
        non-answer as its value (None for an answer), the router's explanation
        of it, and the sample's ``outcomes --format json`` row as metadata.
    """

    async def scan(transcript: Transcript) -> Result:
        return outcome_result(transcript_outcome(transcript))

    return scan


class NotInEvalLog(Exception):
    """A transcript whose sample cannot be found in a readable eval log."""


def transcript_outcome(transcript: Transcript) -> SampleOutcome:
    """The ``outcomes`` row of the sample a transcript was read from.

    The sample of a live eval the scan runs in is classified as it will be
    logged; any other, in its log.

    Raises:
        NotInEvalLog: If the transcript does not come from an Inspect eval log,
            the log cannot be read, or it no longer holds the sample.
    """
    location = transcript.source_uri
    if transcript.source_type != EVAL_LOG:
        raise NotInEvalLog(
            f"transcript {transcript.transcript_id} comes from "
            f"{transcript.source_type or 'an unnamed source'}, not an Inspect "
            "eval log; empty_outcome classifies the samples of eval logs"
        )
    if not location:
        # Scout's as_scorer builds such a transcript from the task state
        raise NotInEvalLog(
            f"transcript {transcript.transcript_id} names no eval log; attach "
            "empty_outcome to the eval (eval(..., scanner=[empty_outcome()])) "
            "or scan its log, rather than use it as a scorer"
        )
    try:
        live = running_sample(transcript)
        if live is not None:
            header = _run_header(location)
            return located_outcome(location, header, live, _answer_locations()(header))
        rows = _log_rows(location, _version(location))
    except LogReadError as error:
        raise NotInEvalLog(str(error)) from None
    key = (str(transcript.task_id), transcript.task_repeat)
    if key not in rows:
        raise NotInEvalLog(
            f"{location} holds no sample {key[0]} epoch {key[1]}: the log changed "
            "after Scout indexed it; scan it again"
        )
    return rows[key]


def running_sample(transcript: Transcript) -> EvalSample | None:
    """The transcript's sample as its log will hold it, if the scan runs in its eval.

    Built from what Inspect builds the logged sample from when the sample
    ends: its dataset sample, its final task state and its events; the error
    and the limit that stopped it are the transcript's. None when the scan
    does not run inside the eval of that sample (an offline scan).
    """
    active, state = sample_active(), sample_state()
    if active is None or state is None:
        return None
    if (str(state.sample_id), state.epoch) != (
        transcript.task_id,
        transcript.task_repeat,
    ):
        return None
    # the sample's own transcript: Scout gives its scanner a fresh one
    events = list(active.transcript.events)
    return EvalSample(
        id=state.sample_id,
        epoch=state.epoch,
        input=active.sample.input,
        choices=active.sample.choices,
        target=active.sample.target,
        metadata=state.metadata or {},
        messages=state.messages,
        output=state.output,
        store=dict(state.store.items()),
        events=events,
        error=_error(transcript.error),
        limit=_limit(events),
    )


def _error(message: str | None) -> EvalError | None:
    if message is None:
        return None
    return EvalError(message=message, traceback="", traceback_ansi="")


def _limit(events: Sequence[object]) -> EvalSampleLimit | None:
    limits = [e for e in events if isinstance(e, SampleLimitEvent)]
    if not limits:
        return None
    last = limits[-1]
    return EvalSampleLimit(
        type=last.type, limit=last.limit if last.limit is not None else -1
    )


def outcome_result(found: SampleOutcome) -> Result:
    """A sample's Scout result: the class of a non-answer, and its ``outcomes`` row."""
    explanation = Classification(found.outcome, found.signal).explanation
    if found.stopped_by:
        explanation += f" The run stopped the sample ({found.stopped_by})."
    return Result(
        value=None if found.outcome == Outcome.ANSWERED else str(found.outcome),
        explanation=explanation,
        metadata=outcome_row(found),
    )


@lru_cache(maxsize=64)
def _log_rows(
    location: str, version: tuple[int, int] | None
) -> dict[tuple[str, int], SampleOutcome]:
    # `version` is in the key so that a log rewritten in place is read again
    outcomes = log_outcomes(location, _answer_locations()).outcomes
    return {(str(o.sample_id), o.epoch): o for o in outcomes}


@lru_cache(maxsize=64)
def _run_header(location: str) -> EvalLog:
    # a live eval's log is read for its header only, written when the run
    # starts: its eval spec (model, scorers) and generate config
    return read_header(location)


def _version(location: str) -> tuple[int, int] | None:
    try:
        stat = os.stat(location)
    except OSError:  # not a local file: its rows are kept as first read
        return None
    return stat.st_mtime_ns, stat.st_size


@lru_cache(maxsize=1)
def _answer_locations() -> AnswerLocation:
    return outcome_locations(EVALS_DIR)
