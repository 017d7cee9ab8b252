"""CPU time of ``empty-migrate lint`` against LibCST's no-op codemod.

Two measures, each as fresh processes alternated on the same tree, the median
user+sys CPU time of each (children included): linting one changed file
against the no-op on that file (goal: at most 1.0x), and linting the whole
tree against the no-op over src/inspect_evals (goal: at most 0.25x).

Usage:
    python bench/lint.py [--file src/inspect_evals/xstest/xstest.py] [--runs 5] TREE

TREE should be a migrated tree (lint exits 0 there; 1 is accepted too, as
findings are not failures here). Bytecode caching is on, as in an install.
"""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
from pathlib import Path


def cpu_seconds(command: list[str], cwd: Path) -> float:
    """User plus system CPU time of one run of `command`, its children included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    run = subprocess.run(
        command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environ
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} failed: {run.stderr.decode()[-500:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def compare(ours: list[str], noop: list[str], tree: Path, runs: int) -> float:
    """The ratio of the medians, printed with both."""
    cpu_seconds(ours, tree), cpu_seconds(noop, tree)  # warm the file cache
    times: dict[str, list[float]] = {"ours": [], "noop": []}
    for _ in range(runs):
        times["ours"].append(cpu_seconds(ours, tree))
        times["noop"].append(cpu_seconds(noop, tree))
    ours_median = statistics.median(times["ours"])
    noop_median = statistics.median(times["noop"])
    print(f"  {' '.join(ours[1:])}: {ours_median:.3f} s CPU")
    print(f"  libcst no-op on {noop[-1]}: {noop_median:.3f} s CPU")
    return ours_median / noop_median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", help="an extracted (migrated) inspect_evals tree")
    parser.add_argument("--file", default="src/inspect_evals/xstest/xstest.py")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    tree = Path(args.tree)
    tool = shutil.which("empty-migrate") or "empty-migrate"
    noop = [sys.executable, "-m", "libcst.tool", "codemod", "noop.NOOPCommand"]
    one = compare([tool, "lint", args.file], [*noop, args.file], tree, args.runs)
    print(f"one file: {one:.2f}x (goal 1.0x)")
    folder = "src/inspect_evals"
    whole = compare([tool, "lint"], [*noop, folder], tree, args.runs)
    print(f"whole tree: {whole:.2f}x (goal 0.25x)")
    print(f"(medians of {args.runs} alternated fresh runs, children included)")


if __name__ == "__main__":
    main()
