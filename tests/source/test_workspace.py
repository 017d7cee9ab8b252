"""Codemods read only the run's workspace, never the disk under it; it reads text
with LF line ends and no BOM, and refuses a file that is not UTF-8."""

import shutil
from pathlib import Path

import pytest

from empty_migrate.analysis.scan import scan_eval
from empty_migrate.codemods import eval_target, implementation, names
from empty_migrate.pipeline.runner import Workspace, migrate_eval
from empty_migrate.registry.loader import load_entry
from empty_migrate.target.text_files import NotUtf8
from tests.demo import entry

GOLDEN = Path(__file__).parents[2] / "golden"
PACKAGE = "src/inspect_evals/demo"
SCORER = f"{PACKAGE}/scorer.py"

REGISTRY = entry(
    category="model_graded",
    judge="scorer",
    codemods=[
        "replace_preset",
        "wrap_router",
        "judge_bypass",
        "replace_dead_check",
        "fix_reason_tag",
        "bump_task_version",
        "changelog",
    ],
    today="empty completion -> preset INCORRECT (demo/scorer.py::demo_scorer)",
)

# every codemod that used to read the disk has something to read here: the
# preset is called through an alias the scan misses (replace_preset looks for
# such files itself), the dead check is inside the construct
# (replace_dead_check), the judge is found through the package index
# (judge_bypass), and eval.yaml and the README feed the version and changelog
SCORER_TEXT = """\
from inspect_ai.model import get_model
from inspect_ai.scorer import INCORRECT, Score, Scorer, accuracy, scorer

from inspect_evals.utils.scorers import preset_score_on_no_response as preset


@scorer(metrics=[accuracy()])
def demo_scorer() -> Scorer:
    async def score(state, target):
        if not state.output:
            return Score(value=INCORRECT)
        judge = get_model(role="grader")
        reply = await judge.generate(state.output.completion)
        return Score(value=reply.completion)

    return preset(score, INCORRECT)
"""


def _tree(root: Path) -> Path:
    before = GOLDEN / "bump_task_version" / "double_quoted_version" / "before"
    shutil.copytree(before, root)
    (root / SCORER).write_text(SCORER_TEXT)
    (root / PACKAGE / "__init__.py").write_text("")
    return root


def _other_tree(root: Path, like: Path) -> Path:
    """A tree with every file of `like`, each with other text."""
    shutil.copytree(like, root)
    for path in root.rglob("*"):
        if path.is_file():
            path.write_text("raise SystemExit('read from the wrong tree')\n")
    return root


def _run(repo: Path, workspace: Workspace) -> dict[str, tuple[str, str, tuple]]:
    registry = repo.parent / "registry.yaml"
    registry.write_text(REGISTRY)
    entry, problems = load_entry(registry)
    assert not problems, problems
    scan = scan_eval(workspace, "demo")
    target = eval_target("demo", entry, scan, repo, "2026-12-01")
    result = migrate_eval(target, [implementation(n) for n in names()], workspace)
    assert result.status == "rewritten", result.reason
    return {f.path: (f.status, f.after, f.codemods) for f in result.files}


def test_the_disk_changed_under_a_run_changes_nothing(tmp_path):
    tree = _tree(tmp_path / "tree")
    expected = _run(tree, Workspace(tree))

    workspace = Workspace(tree)
    for path in tree.rglob("*"):
        if path.is_file():
            workspace.read(path.relative_to(tree).as_posix())
    _other_tree(tmp_path / "other", tree)
    shutil.rmtree(tree)
    shutil.copytree(tmp_path / "other", tree)

    assert _run(tree, workspace) == expected


def test_a_run_sees_its_workspace_tree_not_the_targets(tmp_path):
    tree = _tree(tmp_path / "tree")
    expected = _run(tree, Workspace(tree))
    applied = {name for _, _, codemods in expected.values() for name in codemods}
    assert {"replace_preset", "replace_dead_check", "bump_task_version"} <= applied
    assert {"changelog"} <= applied

    elsewhere = _other_tree(tmp_path / "other", tree)

    assert _run(elsewhere, Workspace(tree)) == expected


def test_a_file_is_read_with_lf_and_no_bom_and_its_own_text_is_kept(tmp_path):
    own = "\ufeffx = 1\r\ny = 2\n"
    (tmp_path / "a.py").write_bytes(own.encode())
    (tmp_path / "b.py").write_text("x = 1\n")
    workspace = Workspace(tmp_path)
    assert workspace.read("a.py") == "x = 1\ny = 2\n"
    assert workspace.found("a.py") == own
    assert workspace.read("b.py") == "x = 1\n"
    assert workspace.found("b.py") is None
    assert workspace.read("missing.py") == ""


def test_a_file_that_is_not_utf8_is_refused_with_the_reason(tmp_path):
    (tmp_path / "a.py").write_bytes("# café\n".encode("latin-1"))
    with pytest.raises(NotUtf8, match=r"^a\.py is not UTF-8 \(byte 0xe9 "):
        Workspace(tmp_path).read("a.py")
