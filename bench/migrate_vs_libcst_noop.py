"""Time ``empty-migrate --all --dry-run`` against LibCST's no-op codemod.

Both run over copies of the same inspect_evals tree, as fresh processes,
alternately (ours, then the no-op, `--rounds` times): ours parses only the
files the registry points at, LibCST's
``python -m libcst.tool codemod noop.NOOPCommand src/inspect_evals`` parses,
walks and prints all of them, on every core. Prints the wall time, the CPU
time (user + sys, child processes included: our workers and ruff, LibCST's
workers) and peak memory (max RSS) of each run, the median of each and the
ratios of the medians. Goal: ours <= 0.15x of the no-op in CPU time; the wall
time ratio is printed beside it (a loaded machine's waiting counts there).

With ``--cold``, each run of ours starts from an empty user cache (no checked
registry entries, no kept scans, no formatted router): the first run on a
machine. Without it, runs after the first reuse what the first one kept.

Usage:
    python bench/migrate_vs_libcst_noop.py [--rounds 5] [--cold] [TREE]

TREE defaults to the pinned release, fetched through ``pypi:`` into the cache.
The tree is copied to a scratch folder first, so neither run can touch it.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from empty_migrate.target.corpus import DEFAULT_SPEC, resolve_target

GOAL = 0.15
"""The budget, in CPU time: ours at most this share of the no-op's."""

MEASURE = """
import resource, subprocess, sys, time
start = time.perf_counter()
run = subprocess.run(sys.argv[2:], cwd=sys.argv[1], stdout=subprocess.PIPE,
                     stderr=subprocess.DEVNULL)
elapsed = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = usage.ru_utime + usage.ru_stime
print(elapsed, cpu, usage.ru_maxrss, run.returncode, len(run.stdout))
"""


class Run(NamedTuple):
    """One run of a command: what it cost and what it printed."""

    wall: float
    cpu: float
    peak_mib: float
    code: int
    stdout_size: int


def measure(cwd: Path, command: list[str], cache: Path | None = None) -> Run:
    """Wall and CPU seconds, peak RSS, exit code and stdout size of one command.

    With `cache`, the command runs with an empty cache folder there.
    """
    environ = dict(os.environ)
    if cache is not None:
        shutil.rmtree(cache, ignore_errors=True)
        environ["EMPTY_MIGRATE_CACHE"] = str(cache)
    run = subprocess.run(
        [sys.executable, "-c", MEASURE, str(cwd), *command],
        capture_output=True,
        text=True,
        check=True,
        env=environ,
    )
    elapsed, cpu, peak_kib, code, size = run.stdout.split()
    return Run(float(elapsed), float(cpu), int(peak_kib) / 1024, int(code), int(size))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", help=f"inspect_evals tree ({DEFAULT_SPEC})")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cold", action="store_true", help="an empty cache each run")
    args = parser.parse_args()
    tree = resolve_target(args.tree or DEFAULT_SPEC).path
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "tree"
        shutil.copytree(tree, copy, ignore=shutil.ignore_patterns(".git"))
        files = len(list((copy / "src/inspect_evals").rglob("*.py")))
        ours = [sys.executable, "-m", "empty_migrate", "--all", "--dry-run"]
        ours += ["--format", "json", "--repo", str(copy)]
        noop = [sys.executable, "-m", "libcst.tool", "codemod", "noop.NOOPCommand"]
        noop += ["src/inspect_evals"]
        runs: dict[str, list[Run]] = {"ours": [], "noop": []}
        cache = Path(scratch) / "cache" if args.cold else None
        for _ in range(args.rounds):
            runs["ours"].append(measure(copy, ours, cache))
            runs["noop"].append(measure(copy, noop))
    if any(run.code != 0 or run.stdout_size == 0 for run in runs["ours"]):
        sys.exit(f"empty-migrate did not run: {runs['ours']}")
    report(files, runs)


def report(files: int, runs: dict[str, list[Run]]) -> None:
    """Print every run, the medians and the ratios (CPU and wall)."""
    print(f"tree: {files} Python files under src/inspect_evals")
    labels = {
        "ours": "empty-migrate --all --dry-run",
        "noop": "libcst.tool codemod noop.NOOPCommand",
    }
    for key, label in labels.items():
        for run in runs[key]:
            print(
                f"{label:<40} {run.wall:7.2f} s wall {run.cpu:7.2f} s CPU  "
                f"peak {run.peak_mib:7.1f} MiB  exit {run.code}"
            )
    medians = {
        measure: {
            key: statistics.median(getattr(r, measure) for r in runs[key])
            for key in labels
        }
        for measure in ("cpu", "wall")
    }
    ratios = {measure: m["ours"] / m["noop"] for measure, m in medians.items()}
    for measure, m in medians.items():
        print(f"{measure} medians: {m['ours']:.2f} s vs {m['noop']:.2f} s")
    for measure, ratio in ratios.items():
        verdict = "meets" if ratio <= GOAL else "misses"
        print(f"{measure} ratio: {ratio:.3f}x ({verdict} {GOAL}x)")
    rounds = [
        {"ours": [a.wall, a.cpu], "noop": [b.wall, b.cpu]}
        for a, b in zip(runs["ours"], runs["noop"], strict=True)
    ]
    print(json.dumps({"medians_s": medians, "ratios": ratios, "rounds": rounds}))


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"benchmark took {time.perf_counter() - start:.1f} s")
