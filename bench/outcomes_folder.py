"""`empty-migrate outcomes DIR` against inspect_ai's own `read_eval_log` over DIR.

Runs ``empty-migrate outcomes DIR`` and a fresh Python that calls
``inspect_ai.log.read_eval_log`` on every ``.eval`` and ``.json`` log under DIR
(the anchor: the tool must read the logs anyway), alternately, each as a fresh
process, and compares the median wall time of each and their peak RSS. Goal:
at most 1.5x the anchor's time.

Usage:
    python bench/outcomes_folder.py [--runs 5] [--copies 4] [DIR]

DIR defaults to a temporary folder of `--copies` copies of the committed logs
of every release (tests/audit/logs/data: both formats, 324 sample epochs a
copy); the benchmark refuses a folder of fewer than 1,000 samples.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).parents[1] / "tests" / "audit" / "logs" / "data"
SUFFIXES = (".eval", ".json")
ANCHOR = """
import sys
from pathlib import Path
from inspect_ai.log import read_eval_log
logs = sorted(p for p in Path(sys.argv[1]).rglob("*") if p.suffix in {".eval", ".json"})
print(sum(len(read_eval_log(str(p)).samples or []) for p in logs))
"""


def run(command: list[str]) -> tuple[float, int, str]:
    """Wall seconds, peak RSS in MiB and standard output of one fresh run."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        # waited for with wait4, not communicate, to get this child's own peak
        child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err)
        out = child.stdout.read() if child.stdout else b""
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            sys.exit(f"{' '.join(command)} failed: {err.read().decode()[-500:]}")
    return wall, usage.ru_maxrss // 1024, out.decode()


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
    anchor = [sys.executable, "-c", ANCHOR, str(folder)]
    try:
        _, _, counted = run(anchor)  # also warms the file cache
        samples = int(counted)
        if samples < 1000:
            sys.exit(f"{folder} holds {samples} samples; the benchmark needs 1,000")
        run(ours)
        walls: dict[str, list[float]] = {"ours": [], "anchor": []}
        peaks: dict[str, int] = {"ours": 0, "anchor": 0}
        for _ in range(args.runs):
            for name, command in (("ours", ours), ("anchor", anchor)):
                wall, rss, _ = run(command)
                walls[name].append(wall)
                peaks[name] = max(peaks[name], rss)
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
