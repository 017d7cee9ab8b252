"""CPU time of migrating one eval against the cost of importing LibCST.

Runs ``empty-migrate --eval EVAL --dry-run`` and ``python -c "import libcst"``
alternately, each as a fresh process, and compares the median user+sys CPU
time of each (children's rusage, so a loaded machine's waiting does not
count). Goal: one eval costs <= 3x the LibCST import.

Usage:
    python bench/one_eval_cpu.py [--eval xstest] [--runs 15] [TREE]

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

from empty_migrate.target.corpus import DEFAULT_SPEC, resolve_target


def cpu_seconds(command: list[str]) -> float:
    """User plus system CPU time of one run of `command`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environ
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", help="an extracted inspect_evals tree")
    parser.add_argument("--eval", default="xstest")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    tree = args.tree or str(resolve_target(DEFAULT_SPEC).path)
    tool = shutil.which("empty-migrate") or "empty-migrate"
    ours = [tool, "--eval", args.eval, "--dry-run", "--repo", tree]
    libcst = [sys.executable, "-c", "import libcst"]
    cpu_seconds(ours), cpu_seconds(libcst)  # warm the file cache
    times: dict[str, list[float]] = {"ours": [], "libcst": []}
    for _ in range(args.runs):
        times["ours"].append(cpu_seconds(ours))
        times["libcst"].append(cpu_seconds(libcst))
    ours_median = statistics.median(times["ours"])
    libcst_median = statistics.median(times["libcst"])
    print(
        f"--eval {args.eval} --dry-run: {ours_median:.3f} s CPU (median of {args.runs})"
    )
    print(f"import libcst:            {libcst_median:.3f} s CPU")
    ratio = ours_median / libcst_median
    print(f"ratio: {ratio:.2f}x (goal <= 3x)")


if __name__ == "__main__":
    main()
