"""The registry against the real inspect_evals 0.26.0, fetched through pypi:."""

import os

import pytest
from git import Repo

from empty_migrate.analysis.scan import scan_eval
from empty_migrate.cli.main import main
from empty_migrate.registry.drift import helper_drift
from empty_migrate.registry.loader import load_registry
from empty_migrate.target.corpus import CorpusError, resolve_target
from empty_migrate.target.layout import eval_package_names

pytestmark = pytest.mark.corpus


def test_fetched_release_is_one_clean_commit(inspect_evals_tree):
    if os.environ.get("EMPTY_MIGRATE_CORPUS"):
        pytest.skip("EMPTY_MIGRATE_CORPUS points at an existing tree")
    repo = Repo(inspect_evals_tree)
    assert len(list(repo.iter_commits())) == 1
    assert not repo.is_dirty(untracked_files=True)


def test_second_resolve_reuses_the_cache(inspect_evals_tree, corpus_cache, monkeypatch):
    if os.environ.get("EMPTY_MIGRATE_CORPUS"):
        pytest.skip("EMPTY_MIGRATE_CORPUS points at an existing tree")
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(corpus_cache))
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")  # no network
    assert resolve_target("pypi:inspect-evals==0.26.0").path == inspect_evals_tree


def test_unknown_version_is_one_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path))
    with pytest.raises(CorpusError, match="is not on the package index"):
        resolve_target("pypi:inspect-evals==0.0.999")
    assert list(tmp_path.iterdir()) == []


def test_registry_names_exactly_the_eval_packages(inspect_evals_tree):
    registry = load_registry()
    assert sorted(registry.evals) == eval_package_names(inspect_evals_tree)
    assert len(registry.evals) == 130


def test_registry_validate_passes(inspect_evals_tree, capsys):
    assert main(["registry", "validate", "--repo", str(inspect_evals_tree)]) == 0
    assert "registry valid: 130 evals" in capsys.readouterr().out


def test_registry_scan_finds_no_drift(inspect_evals_tree, capsys):
    code = main(["registry", "scan", "--repo", str(inspect_evals_tree)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "7 preset calls" in out and "8 dead checks" in out


def test_registry_scan_follows_the_output_into_helpers(inspect_evals_tree):
    scans = {
        name: scan_eval(inspect_evals_tree, name)
        for name in ("agentharm", "cti_realm", "healthbench")
    }
    helpers = {
        name: {(c.function, f"{c.file}:{c.line}") for c in scan.helpers}
        for name, scan in scans.items()
    }
    assert helpers["agentharm"] == {
        ("semantic_judge", "agentharm/benchmark/grading_utils.py:20"),
        ("extract_first_text_message", "agentharm/benchmark/grading_utils.py:168"),
        ("extract_last_text_message", "agentharm/benchmark/grading_utils.py:176"),
    }
    [judge] = [c for c in scans["agentharm"].helpers if c.function == "semantic_judge"]
    assert " -> ".join(judge.route) == (
        "combined_scorer -> grading_function(messages) -> semantic_judge(message)"
    )
    assert helpers["cti_realm"] == {("_score_sample", "cti_realm/core/scorer.py:388")}
    assert "healthbench/scorer.py:674: healthbench_scorer._scorer.score: " + (
        "not model_response (via _scorer)"
    ) in [str(c) for c in scans["healthbench"].missed_by_name]
    registry = load_registry()
    assert not [
        str(d)
        for name, scan in scans.items()
        for d in helper_drift(registry.evals[name], name, scan, inspect_evals_tree)
    ]
