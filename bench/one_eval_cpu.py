"""CPU time of migrating one eval against LibCST's no-op codemod over that eval.

Runs ``empty-migrate --eval EVAL --dry-run`` and
``python -m libcst.tool codemod noop.NOOPCommand src/inspect_evals/EVAL``
alternately, each as a fresh process on the same tree, and compares the median
user+sys CPU time of each, child processes included (ruff, LibCST's workers):
a loaded machine's waiting does not count. Goal: one eval costs at most half
the no-op over its own folder (0.5x).

Usage:
    python bench/one_eval_cpu.py [--eval xstest] [--runs 5] [TREE]

TREE defaults to the pinned release, fetched through ``pypi:`` into the cache.
Both commands run with bytecode caching on (``PYTHONDONTWRITEBYTECODE`` is
removed from their environment), as in a normal install, where pip compiles
the modules: otherwise every run would compile this package from source.
"""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

from empty_migrate.target.corpus import DEFAULT_SPEC, resolve_target


def cpu_seconds(command: list[str], cwd: Path) -> float:
    """User plus system CPU time of one run of `command`, its children included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    run = subprocess.run(
        command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environ
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        sys.exit(f"{' '.join(command)} failed: {run.stderr.decode()[-500:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", help="an extracted inspect_evals tree")
    parser.add_argument("--eval", default="xstest")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    tree = Path(args.tree or resolve_target(DEFAULT_SPEC).path)
    tool = shutil.which("empty-migrate") or "empty-migrate"
    ours = [tool, "--eval", args.eval, "--dry-run", "--repo", str(tree)]
    folder = f"src/inspect_evals/{args.eval}"
    noop = [sys.executable, "-m", "libcst.tool", "codemod", "noop.NOOPCommand", folder]
    cpu_seconds(ours, tree), cpu_seconds(noop, tree)  # warm the file cache
    times: dict[str, list[float]] = {"ours": [], "noop": []}
    for _ in range(args.runs):
        times["ours"].append(cpu_seconds(ours, tree))
        times["noop"].append(cpu_seconds(noop, tree))
    ours_median = statistics.median(times["ours"])
    noop_median = statistics.median(times["noop"])
    ratio = ours_median / noop_median
    print(f"--eval {args.eval} --dry-run:        {ours_median:.3f} s CPU")
    print(f"libcst no-op over {folder}: {noop_median:.3f} s CPU")
    print(f"(medians of {args.runs} alternated runs, children included)")
    verdict = "meets" if ratio <= 0.5 else "misses"
    print(f"ratio: {ratio:.2f}x ({verdict} the 0.5x goal)")


if __name__ == "__main__":
    main()
