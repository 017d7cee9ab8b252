"""Time ``empty-migrate --all --dry-run`` against LibCST's no-op codemod.

Both run over the same inspect_evals tree in one invocation of this script:
ours parses only the files the registry points at, LibCST's
``python -m libcst.tool codemod noop.NOOPCommand src/inspect_evals`` parses all
of them. Prints wall time and peak memory (max RSS of the child process) of
each, and the ratio. Goal: ours <= 0.25x of the no-op.

Usage:
    python bench/migrate_vs_libcst_noop.py [TREE]

TREE defaults to the pinned release, fetched through ``pypi:`` into the cache.
The tree is copied to a scratch folder first, so neither run can touch it.
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from empty_migrate.target.corpus import DEFAULT_SPEC, resolve_target

MEASURE = """
import resource, subprocess, sys, time
start = time.perf_counter()
run = subprocess.run(sys.argv[2:], cwd=sys.argv[1], stdout=subprocess.PIPE,
                     stderr=subprocess.DEVNULL)
elapsed = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(elapsed, peak, run.returncode, len(run.stdout))
"""


def measure(cwd: Path, command: list[str]) -> tuple[float, float, int, int]:
    """Wall seconds, peak RSS in MiB, exit code and stdout size of one command."""
    run = subprocess.run(
        [sys.executable, "-c", MEASURE, str(cwd), *command],
        capture_output=True,
        text=True,
        check=True,
    )
    elapsed, peak_kib, code, size = run.stdout.split()
    return float(elapsed), int(peak_kib) / 1024, int(code), int(size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", help=f"inspect_evals tree ({DEFAULT_SPEC})")
    tree = resolve_target(parser.parse_args().tree or DEFAULT_SPEC).path
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "tree"
        shutil.copytree(tree, copy, ignore=shutil.ignore_patterns(".git"))
        files = len(list((copy / "src/inspect_evals").rglob("*.py")))
        ours = measure(
            copy,
            [
                sys.executable,
                "-m",
                "empty_migrate",
                "--all",
                "--dry-run",
                "--format",
                "json",
                "--repo",
                str(copy),
            ],
        )
        noop = measure(
            copy,
            [
                sys.executable,
                "-m",
                "libcst.tool",
                "codemod",
                "noop.NOOPCommand",
                "src/inspect_evals",
            ],
        )
    if ours[2] != 0 or ours[3] == 0:
        sys.exit(f"empty-migrate did not run (exit {ours[2]}, {ours[3]} bytes out)")
    report(files, ours, noop)


def report(files: int, ours: tuple, noop: tuple) -> None:
    """Print both measurements and the ratio."""
    print(f"tree: {files} Python files under src/inspect_evals")
    for label, (elapsed, peak, code, _) in [
        ("empty-migrate --all --dry-run", ours),
        ("libcst.tool codemod noop.NOOPCommand", noop),
    ]:
        print(f"{label:<40} {elapsed:7.2f} s  peak {peak:7.1f} MiB  exit {code}")
    ratio = ours[0] / noop[0]
    verdict = "meets" if ratio <= 0.25 else "misses"
    print(f"ratio: {ratio:.3f}x ({verdict} the 0.25x goal)")
    print(
        json.dumps(
            {
                "ours_s": ours[0],
                "noop_s": noop[0],
                "ratio": ratio,
                "ours_peak_mib": ours[1],
                "noop_peak_mib": noop[1],
            }
        )
    )


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"benchmark took {time.perf_counter() - start:.1f} s")
