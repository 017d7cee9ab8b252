"""The whole migration on the real inspect_evals 0.26.0 (issue 4's 'done when')."""

import ast

import libcst as cst
import pytest

from empty_migrate.analysis.scan import scan_repo
from empty_migrate.cli.main import main
from empty_migrate.entries.schema import resolve
from empty_migrate.registry.loader import load_registry
from tests.corpus.conftest import ruff, run_json

pytestmark = pytest.mark.corpus


@pytest.fixture
def migrated(migrated_tree):
    return migrated_tree


def changed_paths(report):
    return sorted(
        {
            f["path"]
            for e in report["evals"]
            for f in e["files"]
            if f["status"] == "rewritten"
        }
    )


def test_dry_run_completes_without_failures(migrated):
    _, report = migrated
    assert report["summary"]["failed"] == 0
    assert report["summary"]["rewritten"] >= 100


def test_every_skip_has_a_reason(migrated):
    _, report = migrated
    skipped = [e for e in report["evals"] if e["status"] == "skipped"]
    assert skipped, "the registry marks some evals none/manual"
    for result in skipped:
        assert result["reason"], result["eval"]


def test_changed_python_files_parse_and_compile(migrated):
    repo, report = migrated
    for path in (p for p in changed_paths(report) if p.endswith(".py")):
        text = (repo / path).read_text()
        cst.parse_module(text)
        compile(text, path, "exec")


def test_changed_files_pass_the_targets_ruff(migrated):
    repo, report = migrated
    files = [p for p in changed_paths(report) if p.endswith(".py")]
    assert "tests/utils/empty_response.py" in files
    assert any(p.endswith("/test_empty_response_policy.py") for p in files)
    for args in (["check"], ["format", "--check"]):
        run = ruff(*args, *files, cwd=repo)
        assert run.returncode == 0, run.stdout + run.stderr


def test_second_run_changes_nothing(migrated):
    repo, _ = migrated
    again = run_json(repo, "--all", "--dry-run")
    assert changed_paths(again) == []
    assert main(["--all", "--check", "--repo", str(repo)]) == 0


def test_every_preset_call_is_gone(migrated, inspect_evals_tree):
    repo, _ = migrated
    before = scan_repo(inspect_evals_tree)
    assert sum(len(s.preset_calls) for s in before.values()) == 7
    after = scan_repo(repo)
    assert [str(f) for s in after.values() for f in s.preset_calls] == []


def test_frontierscience_dead_check_is_gone(migrated):
    repo, _ = migrated
    source = (repo / "src/inspect_evals/frontierscience/frontierscience.py").read_text()
    assert "if not state.output:" not in source
    assert "classify(state.output) is Outcome.NO_OUTPUT" in source


def test_judge_bypass_evals_route_before_their_judge(migrated):
    repo, report = migrated
    registry = load_registry()
    status = {e["eval"]: e["status"] for e in report["evals"]}
    for name, entry in registry.evals.items():
        if not (isinstance(entry.codemods, list) and "judge_bypass" in entry.codemods):
            continue
        assert status[name] == "rewritten", f"{name} was not migrated"
        for scorer in entry.scorers:
            task = (scorer.tasks or list(entry.tasks) or [None])[0]
            settings = resolve(entry, task, scorer)
            if not scorer.rewrite or settings.output == "none":
                continue
            source = (repo / "src/inspect_evals" / scorer.file).read_text()
            assert _function_routes(source, scorer.name), f"{name}: {scorer.name}"


def _function_routes(source, name):
    for node in ast.parse(source).body:
        if (
            isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.name == name
        ):
            return any(
                isinstance(n, ast.Call)
                and isinstance(n.func, ast.Name)
                and n.func.id == "route_empty_responses"
                for n in ast.walk(node)
            )
    return False


def test_readme_main_command_prints_the_xstest_diff(
    corpus_cache, tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(corpus_cache))
    monkeypatch.chdir(tmp_path)
    assert main(["--eval", "xstest", "--dry-run"]) == 0
    out, err = capsys.readouterr()
    assert "diff --git a/src/inspect_evals/xstest/xstest.py" in out
    assert "route_empty_responses(" in out
    assert "1 of 1 evals would be migrated" in err
