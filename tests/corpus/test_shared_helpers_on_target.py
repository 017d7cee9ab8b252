"""An eval's change is that eval's, on inspect_evals 0.26.0 (issue 28).

For every eval that shares a helper the migration changes with other evals
(the five callers of ``preset_score_on_no_response``, the three AIME evals of
``utils/aime_common.py``), ``--eval X`` on a git copy of the release, in place:

- changes only the files of the evals the run names (X, and the evals it says
  it migrates together with X), plus the new files every migrated eval
  shares;
- leaves every other sharer's audit unchanged: the audit of each of them, as
  the copy's code stands, equals the pristine tree's, cell for cell;

and ``--eval X --branch-per-eval`` makes branches whose tip holds exactly the
in-place tree, so the audit above covers it too.
"""

import shutil
import subprocess
from pathlib import Path

import pytest

from empty_migrate.analysis.callers import callers
from empty_migrate.audit.matrix import Audit
from empty_migrate.audit.report import grid
from empty_migrate.cli.main import main
from empty_migrate.codemods.retire_preset import PRESET, PRESET_FILE
from empty_migrate.delivery.branches import belongs_to_any
from tests.corpus.conftest import TODAY, run_json

pytestmark = pytest.mark.corpus

AIME = ("aime2024", "aime2025", "aime2026")
NEW_SHARED = {
    "src/inspect_evals/utils/empty_response.py",
    "tests/utils/empty_response.py",
}
"""Files the migration adds, which every migrated eval imports: new, so no eval
scores through them until its own code calls them."""
IDENTITY = [
    "-c",
    "user.name=Corpus Test",
    "-c",
    "user.email=corpus@example.com",
]


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *IDENTITY, *args], cwd=repo, check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture(scope="module")
def sharers(inspect_evals_tree) -> list[str]:
    preset = callers(inspect_evals_tree, [PRESET], PRESET_FILE) - {"utils"}
    assert preset == {"fortress", "frontierscience", "hle", "uccb", "xstest"}
    return sorted(preset) + list(AIME)


@pytest.fixture(scope="module")
def pristine_audit(inspect_evals_tree, target_env, sharers, tmp_path_factory):
    return audit(inspect_evals_tree, sharers, target_env, tmp_path_factory)


def audit(tree: Path, evals: list[str], target_env, tmp_path_factory) -> Audit:
    out = tmp_path_factory.mktemp("audit") / "audit.json"
    args = ["audit", "--repo", str(tree), "--format", "json", "--output", str(out)]
    args += ["--python", str(target_env.python)]
    assert main([*args, *(a for name in evals for a in ("--eval", name))]) == 0
    return Audit.from_json(out.read_text())


def clone(inspect_evals_tree: Path, where: Path) -> Path:
    copy = where / "inspect_evals"
    subprocess.run(
        ["git", "clone", "-q", str(inspect_evals_tree), str(copy)], check=True
    )
    shutil.rmtree(copy / "src/inspect_evals.egg-info", ignore_errors=True)
    return copy


def changed_paths(repo: Path) -> set[str]:
    listed = git(repo, "status", "--porcelain", "--untracked-files=all")
    return {line[3:] for line in listed.splitlines()}


def test_one_eval_changes_only_its_unit_and_no_other_sharer_scores_differently(
    inspect_evals_tree, sharers, pristine_audit, target_env, tmp_path_factory
):
    changed_cells = {}
    for name in sharers:
        copy = clone(inspect_evals_tree, tmp_path_factory.mktemp(name))
        report = run_json(copy, "--eval", name, "--dry-run")
        unit = [e["eval"] for e in report["evals"]]
        assert main(["--eval", name, "--repo", str(copy), "--today", TODAY]) == 0
        expected = list(AIME) if name in AIME else [name]
        assert sorted(unit) == sorted(expected), (name, report["plan"])
        for path in changed_paths(copy):
            helper = path == "src/inspect_evals/utils/aime_common.py" and name in AIME
            assert belongs_to_any(path, unit) or path in NEW_SHARED or helper, path
        others = [other for other in sharers if other not in unit]
        after = audit(copy, others, target_env, tmp_path_factory)
        lines = grid(after, _only(pristine_audit, others))
        changed_cells[name] = [ln for ln in lines if ln.changed]
        print(f"{name}: unit {unit}; {len(lines)} rows of {others} compared")
    assert changed_cells == {name: [] for name in sharers}


def _only(audit: Audit, evals: list[str]) -> Audit:
    """The rows of `audit` for `evals` (the pristine audit covers every sharer)."""
    kept = Audit.from_json(audit.to_json())
    kept.rows = [row for row in kept.rows if row.eval in evals]
    return kept


def test_branch_mode_holds_exactly_the_in_place_change(
    inspect_evals_tree, tmp_path_factory
):
    for name in ("xstest", "aime2025"):
        in_place = clone(inspect_evals_tree, tmp_path_factory.mktemp(f"{name}-place"))
        assert main(["--eval", name, "--repo", str(in_place), "--today", TODAY]) == 0
        branched = clone(inspect_evals_tree, tmp_path_factory.mktemp(f"{name}-branch"))
        base = git(branched, "rev-parse", "HEAD").strip()
        args = ["--eval", name, "--branch-per-eval", "--repo", str(branched)]
        assert main([*args, "--today", TODAY, "--pr-dir", str(branched.parent)]) == 0
        made = git(branched, "branch", "--list", "empty-policy/*").split()
        tip = "empty-policy/aime_common" if name in AIME else f"empty-policy/{name}"
        assert set(made) - {"*"} == {"empty-policy/foundation", tip}
        git(branched, "checkout", "-q", tip)
        for path in changed_paths(in_place):
            assert (branched / path).read_bytes() == (in_place / path).read_bytes()
        on_branch = set(git(branched, "diff", "--name-only", base, "HEAD").split())
        assert on_branch == changed_paths(in_place)
