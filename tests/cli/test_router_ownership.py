"""A maintainer's edit to a generated file survives a re-run, unless replaced.

The router module and the policy tests' helpers are the target's own once
installed: a re-run keeps a text no version of this package generated, says
so in one line, and shows what replacing it would change; ``--replace-router``
replaces it, and a text an earlier version generated is upgraded silently.
"""

import json
import subprocess

import pytest

from empty_migrate.cli.main import main
from empty_migrate.codemods.emit_policy_tests.rewrite import (
    FIXTURES_PATH,
    fixtures_text,
)
from empty_migrate.codemods.install_router.rewrite import router_text
from empty_migrate.codemods.kit import released
from tests.codemods.golden import ROUTER
from tests.demo import choice_entry, choice_task

EDIT = "# a fix by the maintainers\n"
SCORER = "src/inspect_evals/gamma/gamma.py"
KEPT = (
    "empty-migrate: kept {path}: edited by its maintainers (differs from every "
    "text this tool generated); --replace-router to overwrite"
)


@pytest.fixture
def repo(demo):
    """gamma, scored by choice(), migrated in place once, under git."""
    demo.add_eval("gamma", {"gamma.py": choice_task("gamma")}, choice_entry("gamma"))
    demo.commit()
    assert run(demo, "--eval", "gamma") == 0
    return demo.repo


def run(demo, *args):
    codemods = ["install_router", "replace_preset", "wrap_router", "emit_policy_tests"]
    only = [arg for name in codemods for arg in ("--only", name)]
    return main(
        [*args, "-v", "--repo", str(demo.repo), "--registry", str(demo.registry)] + only
    )


def edit(repo, path, text):
    (repo / path).write_bytes(text.encode())


def text_of(repo, path):
    return (repo / path).read_bytes().decode()


@pytest.mark.parametrize("path", [ROUTER, FIXTURES_PATH])
def test_a_rerun_keeps_the_maintainers_edit_and_says_so(demo, repo, capsys, path):
    edited = text_of(repo, path) + EDIT
    edit(repo, path, edited)
    # gamma's scorer as it was: the re-run migrates it again, every codemod runs
    (repo / SCORER).write_text(choice_task("gamma"))
    capsys.readouterr()
    assert run(demo, "--eval", "gamma") == 0
    assert text_of(repo, path) == edited
    assert "route_empty_responses(choice()" in (repo / SCORER).read_text()
    err = capsys.readouterr().err
    assert KEPT.format(path=path) in err.splitlines()


def test_a_migrated_eval_stays_unchanged_beside_an_edited_router(demo, repo, capsys):
    # in CRLF line ends, as a Windows checkout has it: kept byte for byte
    edited = (router_text() + EDIT).replace("\n", "\r\n")
    edit(repo, ROUTER, edited)
    capsys.readouterr()
    assert run(demo, "--eval", "gamma") == 0
    assert text_of(repo, ROUTER) == edited
    err = capsys.readouterr().err
    assert KEPT.format(path=ROUTER) in err.splitlines()
    assert "gamma: unchanged: already migrated" in err


def test_replace_router_overwrites_the_edit(demo, repo, capsys):
    edit(repo, ROUTER, router_text() + EDIT)
    edit(repo, FIXTURES_PATH, fixtures_text() + EDIT)
    (repo / SCORER).write_text(choice_task("gamma"))
    capsys.readouterr()
    assert run(demo, "--eval", "gamma", "--replace-router") == 0
    assert text_of(repo, ROUTER) == router_text()
    assert text_of(repo, FIXTURES_PATH) == fixtures_text()
    assert "kept" not in capsys.readouterr().err


@pytest.fixture
def old_release(tmp_path, monkeypatch):
    """A router text an earlier version generated: its digest is in the data."""
    old = router_text().replace("def classify(", "def classify_v0(", 1)
    data = released.with_released({ROUTER: old})
    released_file = tmp_path / "released.json"
    released_file.write_text(json.dumps(data))
    monkeypatch.setattr(released, "RELEASED_FILE", released_file)
    released.released.cache_clear()
    yield old
    released.released.cache_clear()


def test_a_text_an_earlier_version_generated_is_upgraded(
    demo, repo, capsys, old_release
):
    # in CRLF line ends: the same text as far as the digests go
    edit(repo, ROUTER, old_release.replace("\n", "\r\n"))
    capsys.readouterr()
    assert run(demo, "--eval", "gamma") == 0
    assert text_of(repo, ROUTER).replace("\r\n", "\n") == router_text()
    err = capsys.readouterr().err
    assert "kept" not in err
    assert "gamma: rewritten: 1 file(s): install_router" in err


def test_dry_run_says_it_would_keep_it_and_still_applies(demo, repo, capsys):
    edit(repo, ROUTER, router_text() + EDIT)
    (repo / SCORER).write_text(choice_task("gamma"))
    capsys.readouterr()
    assert run(demo, "--eval", "gamma", "--dry-run", "--show-shared") == 0
    out, err = capsys.readouterr()
    assert KEPT.format(path=ROUTER) in err.splitlines()
    assert out.startswith(
        "# empty-migrate keeps generated files their maintainers edited\n"
        "# (--replace-router replaces them; --show-shared prints the change):\n"
        f"#   {ROUTER}: would change +0 -1\n"
    )
    assert f"# -{EDIT}" in out  # the change a replacement would make, commented
    assert f"diff --git a/{ROUTER} b/{ROUTER}" not in out.splitlines()
    patch = repo.parent / "gamma.patch"
    patch.write_text(out)
    assert subprocess.run(["git", "apply", str(patch)], cwd=repo).returncode == 0
    assert text_of(repo, ROUTER) == router_text() + EDIT


def test_the_json_report_records_what_it_kept(demo, repo, capsys):
    edit(repo, ROUTER, router_text() + EDIT)
    capsys.readouterr()
    assert run(demo, "--eval", "gamma", "--dry-run", "--format", "json") == 0
    data = json.loads(capsys.readouterr().out)
    [kept] = data["kept"]
    assert kept["path"] == ROUTER
    assert kept["reason"] == "edited by its maintainers"
    assert kept["note"] == KEPT.format(path=ROUTER).removeprefix("empty-migrate: ")
    assert f"-{EDIT}" in kept["diff"]
    [gamma] = data["evals"]
    statuses = {f["path"]: f["status"] for f in gamma["files"]}
    assert statuses[ROUTER] == "unchanged"


@pytest.mark.parametrize("replace", [False, True])
def test_branch_mode_keeps_the_edit_and_says_so_unless_replaced(
    demo, repo, capsys, replace
):
    edit(repo, ROUTER, router_text() + EDIT)
    (repo / SCORER).write_text(choice_task("gamma"))
    demo.commit()
    capsys.readouterr()
    flags = ["--replace-router"] * replace
    assert run(demo, "--eval", "gamma", "--branch-per-eval", "--dry-run", *flags) == 0
    out, err = capsys.readouterr()
    assert (KEPT.format(path=ROUTER) in err.splitlines()) is not replace
    assert (ROUTER in out) is replace  # the foundation writes it only when replaced
