"""Time ``empty-migrate --all --dry-run`` against LibCST's no-op codemod.

Both run over copies of the same inspect_evals tree, as fresh processes,
alternately (ours, then the no-op, `--rounds` times): ours parses only the
files the registry points at, LibCST's
``python -m libcst.tool codemod noop.NOOPCommand src/inspect_evals`` parses,
walks and prints all of them, on every core. Prints the wall time and peak
memory (max RSS) of each run, the median of each and the ratio of the
medians. Goal: ours <= 0.25x of the no-op in wall time (stretch goal 0.1x).

With ``--cold``, each run of ours starts from an empty user cache (no checked
registry entries, no kept scans, no formatted router): the first run on a
machine. Without it, runs after the first reuse what the first one kept.

Usage:
    python bench/migrate_vs_libcst_noop.py [--rounds 3] [--cold] [TREE]

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


def measure(
    cwd: Path, command: list[str], cache: Path | None = None
) -> tuple[float, float, int, int]:
    """Wall seconds, peak RSS in MiB, exit code and stdout size of one command.

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
    elapsed, peak_kib, code, size = run.stdout.split()
    return float(elapsed), int(peak_kib) / 1024, int(code), int(size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", help=f"inspect_evals tree ({DEFAULT_SPEC})")
    parser.add_argument("--rounds", type=int, default=3)
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
        runs: dict[str, list[tuple[float, float, int, int]]] = {"ours": [], "noop": []}
        cache = Path(scratch) / "cache" if args.cold else None
        for _ in range(args.rounds):
            runs["ours"].append(measure(copy, ours, cache))
            runs["noop"].append(measure(copy, noop))
    if any(code != 0 or size == 0 for _, _, code, size in runs["ours"]):
        sys.exit(f"empty-migrate did not run: {runs['ours']}")
    report(files, runs)


def report(files: int, runs: dict[str, list[tuple[float, float, int, int]]]) -> None:
    """Print every run, the medians and the ratio."""
    print(f"tree: {files} Python files under src/inspect_evals")
    labels = {
        "ours": "empty-migrate --all --dry-run",
        "noop": "libcst.tool codemod noop.NOOPCommand",
    }
    for key, label in labels.items():
        for elapsed, peak, code, _ in runs[key]:
            print(f"{label:<40} {elapsed:7.2f} s  peak {peak:7.1f} MiB  exit {code}")
    ours = statistics.median(run[0] for run in runs["ours"])
    noop = statistics.median(run[0] for run in runs["noop"])
    ratio = ours / noop
    verdict = "meets" if ratio <= 0.25 else "misses"
    print(f"medians: {ours:.2f} s vs {noop:.2f} s")
    print(f"ratio: {ratio:.3f}x ({verdict} the 0.25x goal; stretch goal 0.1x)")
    print(
        json.dumps(
            {
                "ours_s": ours,
                "noop_s": noop,
                "ratio": ratio,
                "rounds": [
                    [a[0], b[0]]
                    for a, b in zip(runs["ours"], runs["noop"], strict=True)
                ],
            }
        )
    )


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"benchmark took {time.perf_counter() - start:.1f} s")
