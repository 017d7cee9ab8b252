"""The in-target half of ``empty-migrate audit``: score the outcome fixtures.

Run in the target's environment, with the audited tree's ``inspect_evals``
first on the path, offline:

    python -m empty_migrate.audit.worker JOBS.json OUT.jsonl

Each job names one registered scorer construct (module, name, construct, where
the eval keeps the model's output). The worker builds it as the eval's code
does, scores one fixture per outcome class with ``empty_migrate.runtime.probe`` and
appends one JSON line per job to OUT: what each fixture scored, or why the
scorer could not be run offline. A line is written as soon as its job is done,
so a worker that dies part-way leaves the finished jobs for the parent.
"""

import asyncio
import importlib
import json
import math
import sys
from pathlib import Path
from typing import Any

from inspect_ai.model import ModelOutput
from inspect_ai.scorer import Scorer

from empty_migrate.entries.outcome_data import outcome_fixtures, outcome_outputs
from empty_migrate.pipeline.stops import end_with_parent
from empty_migrate.runtime import probe
from empty_migrate.testing.offline import network_closed, no_async_back_off

CHOICES = ["Paris", "London", "Berlin", "Madrid"]
"""Choices for every sample, so multiple-choice scorers run; the target is A."""
SCORE_TIMEOUT = 60.0
"""Seconds one scorer may take on one fixture (a mock judge answers at once)."""


def plain(value: Any) -> Any:
    """`value` as JSON can hold it: NaN becomes the string ``"NaN"``."""
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return repr(value)


def observe(fixture: str, outcome: str, scored: probe.Scored) -> dict[str, Any]:
    """What one scorer made of one fixture, as plain JSON."""
    score, error = scored.score, scored.raised
    return {
        "fixture": fixture,
        "outcome": outcome,
        "value": plain(score.value) if score else None,
        "reason": score.reason if score else None,
        "explanation": one_line(score.explanation) if score else None,
        "judge_calls": scored.judge_calls,
        "raised": type(error).__name__ if error else None,
        "raised_message": one_line(str(error)) if error else None,
        "empty_outcome": scored.empty_outcome,
    }


def one_line(text: str | None, limit: int = 300) -> str | None:
    """`text` on one line, cut to `limit` characters."""
    return None if text is None else " ".join(text.split())[:limit]


async def observe_fixtures(
    scorer: Scorer,
    judge: probe.RecordingJudge,
    output_at: str = "state.output",
    metadata: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Score one fixture per outcome class with `scorer`."""
    observed = []
    fixtures = outcome_fixtures()
    for outcome, output in outcome_outputs().items():
        state = probe.task_state(
            ModelOutput.model_validate(output),
            output_at=output_at,
            metadata=metadata,
            choices=CHOICES,
            target="A",
        )
        try:
            scored = await asyncio.wait_for(
                probe.score_output(scorer, state, judge), SCORE_TIMEOUT
            )
        except TimeoutError as error:
            scored = probe.Scored(None, error, 0)
        observed.append(observe(fixtures[outcome], outcome, scored))
    return observed


async def run_job(job: dict[str, Any]) -> dict[str, Any]:
    """One job's line: ``scorers`` (fixtures per built scorer) or ``not_run``."""
    package = ".".join(job["module"].split(".")[:2])
    try:
        importlib.import_module(job["module"])
    except Exception as error:  # an optional dependency, a download at import
        return {"key": job["key"], "not_run": f"import: {describe(error)}"}
    with probe.recording_judge(package, job["module"]) as judge:
        try:
            built = probe.build_scorer(
                job["module"], job["scorer"], job["construct"], package=package
            )
        except Exception as error:
            return {"key": job["key"], "not_run": f"build: {describe(error)}"}
        scorers = built if isinstance(built, list) else [built]
        return {
            "key": job["key"],
            "scorers": [
                await observe_fixtures(s, judge, job["output_at"], job["metadata"])
                for s in scorers
            ],
        }


def describe(error: BaseException) -> str:
    """``Type: message`` on one line, short enough to group by."""
    return f"{type(error).__name__}: {one_line(str(error), 160)}"


async def run_jobs(jobs: list[dict[str, Any]], out: Path) -> None:
    """Run every job, appending its line to `out` as soon as it is done."""
    with out.open("a", encoding="utf-8") as stream:
        for job in jobs:
            stream.write(json.dumps(await run_job(job)) + "\n")
            stream.flush()


def main(argv: list[str]) -> None:
    """``python -m empty_migrate.audit.worker JOBS.json OUT.jsonl``."""
    end_with_parent()  # a killed audit leaves no worker running scorers
    jobs = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    with network_closed(), no_async_back_off():
        asyncio.run(run_jobs(jobs, Path(argv[1])))


if __name__ == "__main__":
    main(sys.argv[1:])
