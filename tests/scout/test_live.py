"""`empty_outcome` on a live eval(), from `inspect_scout.scan`, and over a database.

A real ``eval()`` of a small task on ``mockllm/model`` (one scripted output
per outcome class, and a sample whose model call fails) runs with the scanner
attached, as Scout's online scanning does (``eval(..., scanner=[...])``). The
eval buffers its samples (``log_buffer``) so that its log holds none of them
until the run ends: each is classified while it is only in the run. The rows
Scout writes to the eval's ``scans/`` folder must equal the rows
``empty-migrate outcomes --format json`` gives for the log the eval wrote;
and so must the rows of ``inspect_scout.scan`` over that log folder, and over
a transcript database (Parquet) built from it.

Scout runs in this process (``max_processes=1``: its worker processes would
re-import pytest), so it is imported here only inside the tests: the default
test run, which collects this module, does not import it.
"""

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from tests.scout.test_scanner import keyed, outcomes_rows, require_scout

pytestmark = pytest.mark.slow

ASKED = "What is the capital of France?"

# the classes of a model's final output (tool_calls_only would call a tool,
# and no_output needs a solver that never generates); the sample after them
# finds no scripted output: its model call raises, a sample error
SCRIPTED = [
    "answered",
    "empty",
    "reasoning_only",
    "truncated",
    "refused",
    "refused_after_partial",
    "filtered",
    "overflow",
]


def run_eval(folder: Path, log_format: str) -> None:
    """An eval of one sample per scripted output and one more, the scanner attached."""
    from inspect_ai import Task, eval
    from inspect_ai.dataset import Sample
    from inspect_ai.scorer import includes

    from empty_migrate.runtime.router import Outcome
    from empty_migrate.scout.scanner import empty_outcome
    from empty_migrate.testing.models import scripted_model
    from tests.outcomes import OUTCOME_EXAMPLES

    outputs = [OUTCOME_EXAMPLES[Outcome(name)]() for name in SCRIPTED]
    samples = [
        Sample(id=i, input=ASKED, target="Paris") for i in range(1, len(outputs) + 2)
    ]
    [log] = eval(
        Task(dataset=samples, scorer=includes()),
        model=scripted_model(outputs),
        log_dir=str(folder / "logs"),
        log_format=log_format,  # type: ignore[arg-type]
        # the log holds no sample until the run ends
        log_buffer=100,
        scanner=[empty_outcome()],
        display="none",
        fail_on_error=False,
        max_samples=1,  # the samples take the outputs in order
        max_tokens=64,  # the generate config the log's header keeps
    )
    assert log.status == "success", log.error


def live_run(built_once, log_format: str) -> Path:
    require_scout()
    return built_once(f"scout-live-{log_format}", lambda f: run_eval(f, log_format))


@pytest.fixture(scope="module", params=["eval", "json"])
def live(request, built_once) -> Path:
    """The folder of a live eval with the scanner attached: its logs and scans."""
    return live_run(built_once, request.param)


@pytest.fixture(scope="module")
def eval_logs(built_once) -> Path:
    """The ``.eval`` log of the live eval.

    Scout 0.6.1 reads a single location as eval logs only if it is a ``.eval``
    file or a folder holding one: a ``.json`` log alone it takes for a
    transcript database.
    """
    return the_log(live_run(built_once, "eval"))


def scout_rows(scan: Path) -> tuple[list[dict[str, Any]], Any]:
    """Each result's metadata, and the data frame, of the scanner in a scan."""
    from inspect_scout import scan_results_df

    frame = scan_results_df(str(scan)).scanners["empty_outcome"]
    assert frame["scan_error"].isna().all(), frame["scan_error"].dropna().tolist()
    return [json.loads(metadata) for metadata in frame["metadata"]], frame


def the_scan(scans: Path) -> Path:
    [scan] = scans.glob("scan_id=*")
    return scan


def the_log(live: Path) -> Path:
    [log] = (p for p in (live / "logs").iterdir() if p.suffix in (".eval", ".json"))
    return log


def test_attached_to_a_live_eval_each_sample_has_its_outcomes_row(live):
    rows, frame = scout_rows(the_scan(live / "logs" / "scans"))
    expected = outcomes_rows(the_log(live))
    assert len(rows) == len(expected) == len(SCRIPTED) + 1
    assert keyed(rows) == keyed(expected)
    by_id = {row["sample_id"]: row for row in rows}
    assert [by_id[i + 1]["outcome"] for i in range(len(SCRIPTED))] == SCRIPTED
    assert by_id[len(SCRIPTED) + 1]["stopped_by"].startswith("error: ")
    # the value is the class of a non-answer, None for an answer
    values = frame["value"].astype(object).where(frame["value"].notna(), None)
    classes = [row["outcome"] for row in rows]
    assert values.tolist() == [None if c == "answered" else c for c in classes]


def scan_transcripts(location: Path, scans: Path) -> Path:
    from inspect_scout import scan, transcripts_from

    from empty_migrate.scout.scanner import empty_outcome

    status = scan(
        [empty_outcome()],
        transcripts=transcripts_from(str(location)),
        scans=str(scans),
        display="none",
        max_processes=1,
    )
    assert status.complete
    return Path(status.location)


def test_scan_from_python_gives_the_outcomes_rows(eval_logs, tmp_path):
    log = eval_logs
    rows, _ = scout_rows(scan_transcripts(log.parent, tmp_path / "scans"))
    assert keyed(rows) == keyed(outcomes_rows(log))


def test_a_transcript_database_of_the_logs_gives_the_outcomes_rows(eval_logs, tmp_path):
    from inspect_scout import transcripts_db, transcripts_from

    log = eval_logs
    database = tmp_path / "transcripts"

    async def build() -> None:
        async with transcripts_db(str(database)) as db:
            await db.insert(transcripts_from(str(log.parent)))

    asyncio.run(build())
    assert list(database.glob("*.parquet"))
    rows, _ = scout_rows(scan_transcripts(database, tmp_path / "scans"))
    assert keyed(rows) == keyed(outcomes_rows(log))
