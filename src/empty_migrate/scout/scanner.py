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

Every transcript gets a result, as Scout's own scanners do (`grep_scanner`
gives 0 for no match): its value is the outcome class of a non-answer
(``empty``, ``refused``...), and None for an answer, so that Scout counts the
non-answers as its results; the metadata is the row ``outcomes --format json``
writes for the sample (`outcome_row`), answers included.
"""

import os
from functools import lru_cache

from inspect_scout import Result, Scanner, Transcript, TranscriptInfo, scanner

from empty_migrate.audit.outcomes import (
    AnswerLocation,
    LogReadError,
    SampleOutcome,
    log_outcomes,
    outcome_row,
)
from empty_migrate.cli.common import outcome_locations
from empty_migrate.registry import EVALS_DIR
from empty_migrate.runtime.policy import Outcome
from empty_migrate.runtime.router import Classification

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


def transcript_outcome(transcript: TranscriptInfo) -> SampleOutcome:
    """The ``outcomes`` row of the sample a transcript was read from.

    Raises:
        NotInEvalLog: If the transcript does not come from an Inspect eval log,
            the log cannot be read, or it no longer holds the sample.
    """
    location = transcript.source_uri
    if transcript.source_type != EVAL_LOG or not location:
        raise NotInEvalLog(
            f"transcript {transcript.transcript_id} comes from "
            f"{transcript.source_type or 'an unnamed source'}, not an Inspect "
            "eval log; empty_outcome classifies the samples of eval logs"
        )
    try:
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


def _version(location: str) -> tuple[int, int] | None:
    try:
        stat = os.stat(location)
    except OSError:  # not a local file: its rows are kept as first read
        return None
    return stat.st_mtime_ns, stat.st_size


@lru_cache(maxsize=1)
def _answer_locations() -> AnswerLocation:
    return outcome_locations(EVALS_DIR)
