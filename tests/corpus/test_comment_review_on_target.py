"""Comments left stale by the migration are flagged on 0.26.0 (issue 12).

frontierscience and uccb each say "an empty response answers nothing, so it
is incorrect" above the preset call that now routes empty responses to
``NOANSWER``; frontierscience's "Check for missing output" sits above the dead
check `replace_dead_check` replaces. Each is flagged at its line in the
migrated file, with the codemods that changed its code, and nothing else in
those evals is.
"""

import contextlib
import io
import shutil

import pytest

from empty_migrate.cli.main import main
from tests.corpus.conftest import TODAY, run_json

pytestmark = pytest.mark.corpus

INCORRECT = "# An empty response answers nothing, so it is incorrect."
EXPECTED = {
    "frontierscience": [
        ("frontierscience/frontierscience.py", INCORRECT, ["replace_preset"]),
        (
            "frontierscience/frontierscience.py",
            "# Check for missing output",
            ["replace_dead_check", "fix_reason_tag"],
        ),
    ],
    "uccb": [("uccb/uccb.py", INCORRECT, ["replace_preset"])],
}
CHANGED_CODE = {
    INCORRECT: "route_empty_responses(",
    "# Check for missing output": "if classify(state.output) is Outcome.NO_OUTPUT:",
}
"""The code each comment now sits above."""


@pytest.fixture(scope="module")
def review(inspect_evals_tree, tmp_path_factory):
    """The dry run's JSON and summary for both evals, then the tree migrated."""
    copy = tmp_path_factory.mktemp("review") / "inspect_evals"
    ignored = shutil.ignore_patterns(".git", "inspect_evals.egg-info")
    shutil.copytree(inspect_evals_tree, copy, ignore=ignored)
    evals = ["--eval", "frontierscience", "--eval", "uccb"]
    report = run_json(copy, *evals, "--dry-run")
    summary = io.StringIO()
    with contextlib.redirect_stderr(summary):
        assert main([*evals, "-v", "--repo", str(copy), "--today", TODAY]) == 0
    results = {result["eval"]: result for result in report["evals"]}
    return copy, results, summary.getvalue()


def test_stale_comments_of_frontierscience_and_uccb_are_flagged(review):
    _, results, _ = review
    for name, expected in EXPECTED.items():
        flagged = [
            (f["path"].removeprefix("src/inspect_evals/"), n["comment"], n["codemods"])
            for f in results[name]["files"]
            for n in f["review"]
        ]
        assert flagged == expected, name


def test_each_flag_is_the_line_of_its_comment_over_the_changed_code(review):
    copy, results, summary = review
    printed = [line.strip() for line in summary.splitlines() if "review:" in line]
    expected = []
    for name in EXPECTED:
        for file in results[name]["files"]:
            lines = (copy / file["path"]).read_text().splitlines()
            for note in file["review"]:
                assert lines[note["line"] - 1].strip() == note["comment"]
                assert CHANGED_CODE[note["comment"]] in lines[note["line"]]
                codemods = ", ".join(note["codemods"])
                expected.append(
                    f"review: {file['path']}:{note['line']}: comment above changed "
                    f'code ({codemods}): "{note["comment"]}"'
                )
    assert printed == expected
