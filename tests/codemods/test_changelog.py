"""changelog, and the two follow-ups together in one pass of the runner.

Golden cases must come out rewritten or unchanged, so the skips are tested
here; so is the pipeline, where bump_task_version and changelog run after a
code codemod and must agree on the version.
"""

import pytest

from empty_migrate.codemods import implementation
from empty_migrate.codemods.bump_task_version.rewrite import (
    changelog_entries,
    records_this_migration,
)
from empty_migrate.codemods.kit.base import Skip
from empty_migrate.pipeline.formatter import Formatter
from empty_migrate.pipeline.runner import migrate_eval
from empty_migrate.source.workspace import Workspace
from tests.codemods.golden import discover
from tests.codemods.test_bump_task_version import README, _repo, _target

BUMP, CHANGELOG = implementation("bump_task_version"), implementation("changelog")
EVAL_YAML_PATH = "src/inspect_evals/demo/eval.yaml"


def test_changelog_skips_a_hand_written_entry_for_the_new_version(tmp_path):
    readme = README.replace("## Changelog\n", "## Changelog\n\n### [4-D]\n\n- Hand.\n")
    repo = _repo(tmp_path, {"src/inspect_evals/demo/README.md": readme})
    with pytest.raises(Skip, match=r"already has a \[4-D\] entry"):
        CHANGELOG.transform(readme, "src/inspect_evals/demo/README.md", _target(repo))


def test_a_hand_written_entry_in_the_policys_words_is_not_this_migration(tmp_path):
    hand = "### [4-D]\n\n- Empty answers follow the shared empty-response policy.\n"
    readme = README.replace("## Changelog\n", "## Changelog\n\n" + hand)
    repo = _repo(tmp_path, {"src/inspect_evals/demo/README.md": readme})
    with pytest.raises(Skip, match=r"already has a \[4-D\] entry"):
        CHANGELOG.transform(readme, "src/inspect_evals/demo/README.md", _target(repo))


def test_an_entry_citing_the_router_module_is_this_migration_in_any_words():
    assert records_this_migration(
        "- Reworded, see `inspect_evals.utils.empty_response`."
    )
    assert not records_this_migration(
        "- The inspect_evals.utils.empty_response policy."
    )


WRITTEN_READMES = [
    (case.id, text)
    for case in discover()
    for path, text in case.after.items()
    if case.codemod == "changelog" and path.endswith("README.md")
]


@pytest.mark.parametrize(
    "readme", [t for _, t in WRITTEN_READMES], ids=[i for i, _ in WRITTEN_READMES]
)
def test_every_entry_the_changelog_writes_is_recognised_on_a_rerun(readme):
    newest = next(iter(changelog_entries(readme).values()))
    assert records_this_migration(newest), newest


def test_changelog_skips_a_fragment_with_other_text(tmp_path):
    target = _target(_repo(tmp_path, {}))
    with pytest.raises(Skip, match="exists with other text"):
        CHANGELOG.transform("- Other.\n", CHANGELOG.files(target)[0], target)


def test_changelog_skips_without_a_title_or_a_date(tmp_path):
    repo = _repo(tmp_path, {"src/inspect_evals/demo/eval.yaml": 'version: "3-D"\n'})
    path = CHANGELOG.files(_target(repo))[0]
    with pytest.raises(Skip, match="no title"):
        CHANGELOG.transform("", path, _target(repo))
    with pytest.raises(Skip, match="no YYYY-MM-DD date"):
        CHANGELOG.transform("", path, _target(repo, today=""))


def test_follow_ups_need_a_code_change(tmp_path):
    target = _target(_repo(tmp_path, {}), changed_by=())
    assert BUMP.files(target) == CHANGELOG.files(target) == []


def test_pipeline_bumps_and_records_one_version_then_changes_nothing(tmp_path):
    repo = _repo(tmp_path, {})
    codemods = [
        implementation(n) for n in ("wrap_router", "bump_task_version", "changelog")
    ]
    workspace = Workspace(repo)
    first = migrate_eval(_target(repo, ()), codemods, workspace, Formatter(repo))
    assert first.status == "rewritten", first.reason
    assert 'version: "4-D"' in workspace["src/inspect_evals/demo/eval.yaml"]
    assert "### [4-D] - 2026-11-29" in workspace["src/inspect_evals/demo/README.md"]
    fragment = workspace["changelog.d/20261129_empty_migrate_demo.md"]
    assert fragment.startswith("### Existing Evals\n\n- Demo (v4-D): ")

    for path, text in workspace.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)
    again = migrate_eval(_target(repo, ()), codemods, Workspace(repo), Formatter(repo))
    assert again.status == "unchanged"
    # told the code changed again, the recorded migration is still not redone
    told = _target(repo, ("wrap_router",))
    eval_yaml = (repo / EVAL_YAML_PATH).read_text()
    assert BUMP.transform(eval_yaml, EVAL_YAML_PATH, told) == eval_yaml
    assert CHANGELOG.files(told) == []


def test_fragment_escapes_markdown_in_the_title(tmp_path):
    eval_yaml = "title: 'V*Demo: a title'\nversion: \"3-D\"\n"
    repo = _repo(tmp_path, {EVAL_YAML_PATH: eval_yaml})
    target = _target(repo)
    fragment = CHANGELOG.transform("", CHANGELOG.files(target)[0], target)
    assert fragment.startswith("### Existing Evals\n\n- V\\*Demo: a title (v4-D): ")
