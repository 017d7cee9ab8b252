"""Classify the model outputs recorded in Inspect eval logs.

Measures how often, and why, a model gave no usable answer in a real run: the
outcome class and stop reason of every sample's final output. This is how to
check, before migrating an eval, whether its empty answers are silence,
truncation at a small ``max_tokens``, filters or refusals.
"""

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from inspect_ai.log import EvalLog, EvalSample, read_eval_log
from inspect_ai.model import ModelOutput

from empty_migrate.runtime.router import Outcome, classify_output


@dataclass(frozen=True)
class SampleOutcome:
    """The classified final output of one sample epoch in a log."""

    log: str
    sample_id: int | str
    epoch: int
    outcome: Outcome
    signal: str
    stop_reason: str


class LogReadError(Exception):
    """A path is not a readable Inspect eval log."""


def sample_outcomes(log_path: str | Path) -> list[SampleOutcome]:
    """Classify the final output of every sample in one eval log.

    Args:
        log_path: A ``.eval`` or ``.json`` Inspect log.

    Returns:
        One `SampleOutcome` per sample epoch, in log order.

    Raises:
        LogReadError: If the file is missing or is not an Inspect log.
    """
    log = read_log(log_path)
    return [classify_sample(str(log_path), sample) for sample in log.samples or []]


def read_log(log_path: str | Path, *, resolve_attachments: bool = False) -> EvalLog:
    """Read one Inspect eval log, with its samples.

    Args:
        log_path: A ``.eval`` or ``.json`` Inspect log.
        resolve_attachments: Replace ``attachment://`` references with their
            content, as a scorer would see it.

    Raises:
        LogReadError: If the file is missing or is not an Inspect log.
    """
    try:
        return read_eval_log(str(log_path), resolve_attachments=resolve_attachments)
    except FileNotFoundError:
        raise LogReadError(f"{log_path}: no such file") from None
    except Exception as error:
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
        raise LogReadError(
            f"{log_path}: not an Inspect eval log ({first_line}); "
            "pass a .eval or .json log written by inspect eval"
        ) from None


def classify_sample(
    log: str, sample: EvalSample, output: ModelOutput | None = None
) -> SampleOutcome:
    """Classify one sample's final output (``sample.output`` unless `output`)."""
    output = sample.output if output is None else output
    found = classify_output(output)
    stop_reason = "-" if output.empty else output.stop_reason
    return SampleOutcome(
        log, sample.id, sample.epoch, found.outcome, found.signal, stop_reason
    )


def count_outcomes(outcomes: Iterable[SampleOutcome]) -> Counter[tuple[str, str]]:
    """Count samples by (outcome, stop reason)."""
    return Counter((str(o.outcome), o.stop_reason) for o in outcomes)
