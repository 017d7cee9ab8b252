"""`scout scan empty_migrate/empty_outcome` agrees with `outcomes` on every sample.

Scout runs for real: its ``scout`` command, from this Python's venv, finds the
scanner through the package's ``inspect_ai`` entry point, as a user's does,
over the committed logs (``tests/logs/data``: every inspect-ai release's
logs, both formats). Its results are read back as Scout's data frame and each
row's metadata compared with the row ``empty-migrate outcomes --format json``
gives for the same sample of the same logs.

Scout needs the ``scout`` extra (``pip install -e ".[test,scout]"``, which
.ci/run installs); without it these tests fail rather than skip. A Scout run
takes tens of seconds (one process reads every log, and imports Scout), so
they are slow tests.
"""

import json
import shutil
import subprocess
import sys
from importlib.metadata import entry_points
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow

DATA = Path(__file__).parents[1] / "logs" / "data"
SCANNER = "empty_migrate/empty_outcome"
INSTALL = 'pip install -e ".[test,scout]" (as .ci/run does)'

# Inspect (and so Scout) takes a .json file in a folder for a log only when its
# name starts as Inspect names the logs it writes; the committed ones are named
# for their run
INSPECT_LOG_NAME = "2025-01-01T00-00-00+00-00_{}"


def require_scout() -> Path:
    """The ``scout`` command beside this Python, with the scanner registered."""
    if find_spec("inspect_scout") is None:
        pytest.fail(f"inspect_scout is not installed: {INSTALL}")
    if not entry_points(group="inspect_ai", name="empty_migrate"):
        pytest.fail(
            f"this package's inspect_ai entry point is not installed: {INSTALL}"
        )
    return Path(sys.executable).parent / "scout"


def copy_logs(folder: Path) -> Path:
    logs = folder / "logs"
    shutil.copytree(DATA, logs)
    for path in logs.rglob("*.json"):
        path.rename(path.with_name(INSPECT_LOG_NAME.format(path.name)))
    return logs


def scan_logs(scout: Path, folder: Path) -> None:
    """Copy the committed logs into `folder`, and scan them there."""
    logs = copy_logs(folder)
    done = subprocess.run(
        [scout, "scan", SCANNER, "-T", logs, "--scans", folder / "scans"]
        + ["--display", "plain"],
        cwd=folder,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        # Scout names a package's scanner only for an installed package: a
        # checkout on PYTHONPATH over another one's install is not one
        pytest.fail(f"scout scan failed ({INSTALL}?):\n{done.stdout}{done.stderr}")


@pytest.fixture(scope="module")
def scanned(built_once) -> tuple[Path, Any]:
    """The copied logs, and Scout's data frame of the scanner's results over them.

    Scanned once in a run, whichever pytest-xdist worker asks first.
    """
    scout = require_scout()
    folder = built_once("scout-scan", lambda folder: scan_logs(scout, folder))
    from inspect_scout import scan_results_df

    [scan] = (folder / "scans").glob("scan_id=*")
    return folder / "logs", scan_results_df(str(scan))


def outcomes_rows(logs: Path) -> list[dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-m", "empty_migrate", "outcomes", logs, "--format", "json"],
        cwd=logs.parent,
        capture_output=True,
        text=True,
        check=True,
    )
    rows: list[dict[str, Any]] = json.loads(done.stdout)
    return rows


def keyed(rows: list[dict[str, Any]]) -> dict[tuple[str, str, int], dict[str, Any]]:
    return {(row["log"], str(row["sample_id"]), row["epoch"]): row for row in rows}


def test_every_sample_has_its_outcomes_row(scanned):
    logs, results = scanned
    frame = results.scanners["empty_outcome"]
    scout_rows = [json.loads(metadata) for metadata in frame["metadata"]]
    expected = outcomes_rows(logs)
    # the .json logs are read too, and no sample twice
    assert {Path(row["log"]).suffix for row in scout_rows} == {".eval", ".json"}
    assert len(scout_rows) == len(keyed(scout_rows)) == len(expected)
    assert keyed(scout_rows) == keyed(expected)


def test_the_value_is_the_class_of_a_non_answer(scanned):
    _, results = scanned
    frame = results.scanners["empty_outcome"]
    classes = [json.loads(metadata)["outcome"] for metadata in frame["metadata"]]
    values = frame["value"].astype(object).where(frame["value"].notna(), None)
    assert values.tolist() == [None if c == "answered" else c for c in classes]
    non_answers = sum(c != "answered" for c in classes)
    assert 0 < non_answers < len(classes)
    # Scout counts a result where the value is one: the non-answers
    summary = results.summary.scanners["empty_outcome"]
    assert (summary.scans, summary.results, summary.errors) == (
        len(classes),
        non_answers,
        0,
    )
    assert results.complete and frame["scan_error"].isna().all()


def test_found_as_the_package_scanner(scanned):
    _, results = scanned
    spec = results.spec.scanners["empty_outcome"]
    # a package's scanner, not a file's: found through the entry point
    assert (spec.name, spec.file) == (SCANNER, None)


def test_a_transcript_of_another_source_is_an_error():
    require_scout()
    from inspect_scout import TranscriptInfo

    from empty_migrate.scout.scanner import NotInEvalLog, transcript_outcome

    info = TranscriptInfo(transcript_id="t1", source_type="claude_code")
    with pytest.raises(NotInEvalLog, match="not an Inspect eval log"):
        transcript_outcome(info)


def test_a_transcript_that_names_no_log_is_an_error():
    require_scout()
    from inspect_scout import TranscriptInfo

    from empty_migrate.scout.scanner import NotInEvalLog, transcript_outcome

    # as Scout's as_scorer builds it: an eval log's, without the log
    info = TranscriptInfo(transcript_id="t1", source_type="eval_log")
    with pytest.raises(NotInEvalLog, match="names no eval log; attach"):
        transcript_outcome(info)
