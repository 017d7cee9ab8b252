"""Time ``empty-migrate --all --branch-per-eval`` on a git copy of inspect_evals.

Three runs on one copy: a dry run (the plan: export the base, migrate, split
into branches), the campaign that makes every branch, and a second campaign
that finds every branch done. Prints each run's wall time and the branches
it handled; the copy is thrown away afterwards. Goal: a whole campaign of
0.26.0 (about 100 branches) in under a minute on two cores, and a re-run no
slower than the first.

Usage:
    python bench/campaign.py [TREE]

TREE defaults to the pinned release, fetched through ``pypi:`` into the cache.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from empty_migrate.target.corpus import DEFAULT_SPEC, resolve_target

IDENTITY = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
}


def timed(repo: Path, *flags: str) -> tuple[float, int, str]:
    """Wall seconds, exit code and stderr's last line of one campaign run."""
    command = [sys.executable, "-m", "empty_migrate", "--all", "--branch-per-eval"]
    start = time.perf_counter()
    run = subprocess.run(
        [*command, "--repo", str(repo), *flags],
        capture_output=True,
        text=True,
        env={**os.environ, **IDENTITY},
    )
    elapsed = time.perf_counter() - start
    return elapsed, run.returncode, run.stderr.strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", help=f"inspect_evals tree ({DEFAULT_SPEC})")
    tree = resolve_target(parser.parse_args().tree or DEFAULT_SPEC).path
    with tempfile.TemporaryDirectory() as scratch:
        repo = Path(scratch) / "inspect_evals"
        ignored = shutil.ignore_patterns(".git", "inspect_evals.egg-info")
        shutil.copytree(tree, repo, ignore=ignored)
        env = {**os.environ, **IDENTITY}
        for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
            subprocess.run(["git", *args], cwd=repo, check=True, env=env)
        for label, flags in (
            ("dry run (plan only)", ["--dry-run"]),
            ("campaign", []),
            ("second campaign", []),
        ):
            elapsed, code, last = timed(repo, *flags)
            print(f"{label:<22}{elapsed:6.1f} s  exit {code}  {last}")


if __name__ == "__main__":
    main()
