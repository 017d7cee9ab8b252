"""The script that builds the old releases' logs still builds them.

It regenerates one release's logs (inspect-ai 0.3.79, the oldest: a fresh venv
from the package index) into a temporary folder, and checks that they hold the
same runs, samples and outcomes as the committed ones.
"""

import subprocess
import sys
from pathlib import Path

import pytest

from empty_migrate.logs.outcomes import read_log, sample_outcomes
from empty_migrate.logs.replay import audit_log

SCRIPT = Path(__file__).parents[1] / "logs" / "build_logs.py"
RELEASE = "0.3.79"
EVALS = {"gpqa_diamond": "gpqa", "mmlu_0_shot": "mmlu", "xstest": "xstest"}


def outcomes_of(path: Path) -> list[tuple[int | str, int, str, str]]:
    return [
        (o.sample_id, o.epoch, str(o.outcome), o.stop_reason)
        for o in sample_outcomes(path)
    ]


@pytest.mark.corpus
def test_the_script_rebuilds_one_releases_logs(tmp_path):
    run = [sys.executable, str(SCRIPT), "--out", str(tmp_path), RELEASE]
    subprocess.run(run, check=True, timeout=600, capture_output=True)
    built, committed = tmp_path / RELEASE, SCRIPT.parent / "data" / RELEASE
    assert sorted(p.name for p in built.iterdir()) == sorted(
        p.name for p in committed.iterdir()
    )
    for path in sorted(built.iterdir()):
        log = read_log(path)
        rows, kept = outcomes_of(path), outcomes_of(committed / path.name)
        if read_log(committed / path.name).status == "cancelled":
            # where the SIGINT lands depends on the machine's speed: it cancels
            # the run, or on a loaded machine only the sample it interrupts (a
            # sample error); the samples both logs hold must agree
            samples = log.samples or []
            assert log.status == "cancelled" or any(s.error for s in samples)
            common = {row[:2] for row in rows} & {row[:2] for row in kept}
            assert common, path.name
            assert [r for r in rows if r[:2] in common] == [
                r for r in kept if r[:2] in common
            ], path.name
        else:
            assert rows == kept, path.name
        assert log.eval.packages["inspect_ai"] == RELEASE
        run_name = path.name.partition(".")[0]
        if run_name in EVALS:
            audit = audit_log(path, EVALS[run_name])
            assert audit.metrics
            assert all(m.not_recomputed is None for m in audit.metrics)
