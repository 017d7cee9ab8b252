"""CPU time of ``empty-migrate lint``, beside ruff and LibCST's no-op codemod.

Every measure is the median user+sys CPU time (children included) of fresh
processes alternated on the same tree:

- ``lint FILE`` (the pre-commit hook's call) against ``ruff check FILE`` on the
  same file and the no-op codemod on that file. Goal: at most 0.1 s.
- ``lint`` over the whole tree against the no-op over src/inspect_evals.
  Goal: at most 0.25x.

Usage:
    python bench/lint.py [--file src/inspect_evals/xstest/xstest.py] [--runs 5]
        [--one-file] TREE

TREE should be a migrated tree (lint exits 0 there; 1 is accepted too, as
findings are not failures here). Bytecode caching is on, as in an install.
``--one-file`` skips the whole-tree measure (it takes minutes).
"""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ONE_FILE_BUDGET = 0.1
"""CPU seconds `lint FILE` may take."""

WHOLE_TREE_GOAL = 0.25
"""The whole tree's lint, as a share of the no-op over the tree."""


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


def medians(commands: dict[str, list[str]], tree: Path, runs: int) -> dict[str, float]:
    """Each command's median CPU time over `runs` alternated runs, printed."""
    for command in commands.values():
        cpu_seconds(command, tree)  # warm the file cache
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            times[name].append(cpu_seconds(command, tree))
    found = {name: statistics.median(spent) for name, spent in times.items()}
    for name, median in found.items():
        print(f"  {name}: {median:.3f} s CPU")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", help="an extracted (migrated) inspect_evals tree")
    parser.add_argument("--file", default="src/inspect_evals/xstest/xstest.py")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--one-file", action="store_true", help="skip the whole tree")
    args = parser.parse_args()
    tree = Path(args.tree)
    tool = shutil.which("empty-migrate") or "empty-migrate"
    ruff = shutil.which("ruff") or "ruff"
    noop = [sys.executable, "-m", "libcst.tool", "codemod", "noop.NOOPCommand"]
    one = medians(
        {
            f"empty-migrate lint {args.file}": [tool, "lint", args.file],
            f"ruff check {args.file}": [ruff, "check", args.file],
            f"libcst no-op on {args.file}": [*noop, args.file],
        },
        tree,
        args.runs,
    )
    ours, by_ruff, by_noop = one.values()
    verdict = "meets" if ours <= ONE_FILE_BUDGET else "misses"
    print(
        f"one file: {ours:.3f} s ({verdict} the {ONE_FILE_BUDGET} s budget); "
        f"{ours / by_ruff:.1f}x ruff, {ours / by_noop:.2f}x the no-op"
    )
    if not args.one_file:
        folder = "src/inspect_evals"
        whole = medians(
            {
                "empty-migrate lint": [tool, "lint"],
                f"libcst no-op on {folder}": [*noop, folder],
            },
            tree,
            args.runs,
        )
        ratio = whole["empty-migrate lint"] / whole[f"libcst no-op on {folder}"]
        print(f"whole tree: {ratio:.2f}x (goal {WHOLE_TREE_GOAL}x)")
    print(f"(medians of {args.runs} alternated fresh runs, children included)")


if __name__ == "__main__":
    main()
