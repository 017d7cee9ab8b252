"""changelog, and the two follow-ups together in one pass of the runner.

Its skips with a golden case of their own (a hand-written entry for the new
version, a fragment with other text) are in ``golden/changelog``; the others
are checked here, and so is the pipeline, where bump_task_version and
changelog run after a code codemod and must agree on the version.
"""

import pytest

from empty_migrate.analysis.workspace import Workspace
from empty_migrate.codemods import implementation
from empty_migrate.codemods.bump_task_version.rewrite import (
    changelog_entries,
    records_this_migration,
)
from empty_migrate.codemods.changelog import text as words
from empty_migrate.pipeline.formatter import Formatter
from empty_migrate.pipeline.runner import migrate_eval
from tests.codemods.check import CodemodCheck
from tests.codemods.golden import discover
from tests.demo import DEMO_README

BUMP, CHANGELOG = implementation("bump_task_version"), implementation("changelog")
EVAL_YAML_PATH = "src/inspect_evals/demo/eval.yaml"
README_PATH = "src/inspect_evals/demo/README.md"


def changelog_check(demo, path=README_PATH, **files: str) -> CodemodCheck:
    """changelog on `path` of the demo eval (its files replaced by `files`)."""
    target = demo.add_demo_eval(**files).target(changed_by=["wrap_router"])
    return CodemodCheck("changelog", lambda _: target, path=path, dedent=False)


def test_a_hand_written_entry_in_the_policys_words_is_not_this_migration(demo):
    hand = "### [4-D]\n\n- Empty answers follow the shared empty-response policy.\n"
    readme = DEMO_README.replace("## Changelog\n", "## Changelog\n\n" + hand)
    check = changelog_check(demo, readme=readme)
    check.check_skipped(readme, "README changelog already has a [4-D] entry")


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


FRAGMENT_PATH = "changelog.d/20261129_empty_migrate_demo.md"


def test_changelog_skips_without_a_title_or_a_date(demo):
    check = changelog_check(demo, FRAGMENT_PATH, eval_yaml='version: "3-D"\n')
    check.check_skipped("", "eval.yaml has no title")
    undated = demo.target(today="", changed_by=["wrap_router"])
    check.but(target=lambda _: undated).check_skipped("", "no YYYY-MM-DD date")


def test_follow_ups_need_a_code_change(demo):
    target = demo.add_demo_eval().target()
    assert BUMP.files(target) == CHANGELOG.files(target) == []


def test_pipeline_bumps_and_records_one_version_then_changes_nothing(demo):
    repo = demo.add_demo_eval().repo
    codemods = [
        implementation(n) for n in ("wrap_router", "bump_task_version", "changelog")
    ]
    workspace = Workspace(repo)
    first = migrate_eval(demo.target(), codemods, workspace, Formatter(repo))
    assert first.status == "rewritten", first.reason
    assert 'version: "4-D"' in workspace["src/inspect_evals/demo/eval.yaml"]
    assert "### [4-D] - 2026-11-29" in workspace["src/inspect_evals/demo/README.md"]
    fragment = workspace["changelog.d/20261129_empty_migrate_demo.md"]
    assert fragment.startswith("### Existing Evals\n\n- Demo (v4-D): ")

    for path, text in workspace.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)
    again = migrate_eval(demo.target(), codemods, Workspace(repo), Formatter(repo))
    assert again.status == "unchanged"
    # told the code changed again, the recorded migration is still not redone
    told = demo.target(changed_by=["wrap_router"])
    eval_yaml = (repo / EVAL_YAML_PATH).read_text()
    assert BUMP.transform(eval_yaml, EVAL_YAML_PATH, told) == eval_yaml
    assert CHANGELOG.files(told) == []


def test_fragment_escapes_markdown_in_the_title(demo):
    eval_yaml = "title: 'V*Demo: a title'\nversion: \"3-D\"\n"
    fragment = changelog_check(demo, FRAGMENT_PATH, eval_yaml=eval_yaml).run("")
    assert fragment.startswith("### Existing Evals\n\n- V\\*Demo: a title (v4-D): ")


@pytest.mark.parametrize(
    ("prose", "markdown"),
    [
        ("read at _utils.py::_read.", "read at `_utils.py::_read`."),
        ("(b3/judge.py::Judge.__init__)", "(`b3/judge.py::Judge.__init__`)"),
        ("in eval.yaml, the README.md", "in `eval.yaml`, the `README.md`"),
        ("'' (after <think> stripping)", "'' (after `<think>` stripping)"),
        ("to subtask_<id>_scorer, </b>", "to `subtask_<id>_scorer`, `</b>`"),
        ("kept `<think>` and a < b > c", "kept `<think>` and a < b > c"),
        ("a link <https://example.org>", "a link <https://example.org>"),
    ],
)
def test_registry_prose_keeps_what_markdown_would_misread_as_code(prose, markdown):
    assert words.code_refs(prose) == markdown
