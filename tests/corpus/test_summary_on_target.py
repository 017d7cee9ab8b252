"""On 0.26.0, a dry run and a check say a short summary; the diff is as recorded.

``--verbose`` prints the summary of each eval the run printed before, which
`test_output_digest` holds to its recorded digest; here the default run's
diff must hold to the same digest, its stderr to a few lines, and ``-q`` to
nothing at all.
"""

import json

import pytest

from tests.corpus.test_output_digest import DIGESTS, RUNS, digest, outputs

pytestmark = pytest.mark.corpus

MOST_LINES = 30
"""The issue's bound on what ``--all --dry-run`` says on stderr by default."""


def test_the_default_dry_run_says_a_short_summary_and_the_recorded_diff(
    inspect_evals_tree,
):
    args = [arg for arg in RUNS["diff"] if arg != "--verbose"]
    stdout, stderr = outputs(inspect_evals_tree, args)
    recorded = json.loads(DIGESTS.read_text(encoding="utf-8"))
    assert digest(stdout) == recorded["diff stdout"]
    lines = stderr.splitlines()
    assert 3 <= len(lines) <= MOST_LINES, stderr
    assert "112 of 130 evals would be migrated (688 files would change)" in stderr
    assert lines[-2].startswith("next: run the same command without --dry-run")
    assert "\n  " not in stderr  # no eval's own lines: -v prints those


def test_quiet_says_nothing_on_a_run_without_errors(inspect_evals_tree):
    stdout, stderr = outputs(inspect_evals_tree, ["--all", "--dry-run", "-q"])
    assert stderr == "" and stdout
