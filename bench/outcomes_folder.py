"""`empty-migrate outcomes DIR` against inspect_ai's own `read_eval_log` over DIR.

Runs ``empty-migrate outcomes DIR`` and a fresh Python that calls
``inspect_ai.log.read_eval_log`` on every ``.eval`` and ``.json`` log under DIR
(the anchor: the tool must read the logs anyway), alternately, each as a fresh
process, and compares the median wall time of each and their peak RSS. Goal:
at most 1.5x the anchor's time.

Usage:
    python bench/outcomes_folder.py [--runs 5] [--copies 4] [DIR]

DIR defaults to a temporary folder of `--copies` copies of the committed logs
of every release (tests/logs/data: both formats, 324 sample epochs a
copy); the benchmark refuses a folder of fewer than 1,000 samples.
"""

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from _measure import READ_EVAL_LOG, run

DATA = Path(__file__).parents[1] / "tests" / "logs" / "data"
SUFFIXES = (".eval", ".json")


def build_folder(copies: int) -> Path:
    """A temporary folder of `copies` copies of every committed log."""
    folder = Path(tempfile.mkdtemp(prefix="outcomes-bench-"))
    for n in range(copies):
        for log in sorted(DATA.glob("*/*")):
            if log.suffix in SUFFIXES:
                target = folder / f"copy{n}" / log.parent.name / log.name
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(log, target)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", help="a folder of Inspect logs")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--copies", type=int, default=4)
    args = parser.parse_args()
    folder = Path(args.folder) if args.folder else build_folder(args.copies)
    tool = shutil.which("empty-migrate")
    ours = [tool] if tool else [sys.executable, "-m", "empty_migrate"]
    ours += ["outcomes", str(folder), "--format", "json"]
    anchor = [sys.executable, "-c", READ_EVAL_LOG, str(folder)]
    try:
        samples = int(run(anchor).out)  # also warms the file cache
        if samples < 1000:
            sys.exit(f"{folder} holds {samples} samples; the benchmark needs 1,000")
        run(ours)
        walls: dict[str, list[float]] = {"ours": [], "anchor": []}
        peaks: dict[str, int] = {"ours": 0, "anchor": 0}
        for _ in range(args.runs):
            for name, command in (("ours", ours), ("anchor", anchor)):
                measured = run(command)
                walls[name].append(measured.wall)
                peaks[name] = max(peaks[name], measured.peak_mib)
    finally:
        if not args.folder:
            shutil.rmtree(folder)
    ours_median = statistics.median(walls["ours"])
    anchor_median = statistics.median(walls["anchor"])
    ratio = ours_median / anchor_median
    print(f"folder: {samples} sample epochs")
    print(f"empty-migrate outcomes DIR: {ours_median:.2f} s, {peaks['ours']} MiB peak")
    print(
        f"read_eval_log over DIR:     {anchor_median:.2f} s, {peaks['anchor']} MiB peak"
    )
    print(f"(medians of {args.runs} alternated fresh runs)")
    verdict = "meets" if ratio <= 1.5 else "misses"
    print(f"ratio: {ratio:.2f}x ({verdict} the 1.5x goal)")


if __name__ == "__main__":
    main()
