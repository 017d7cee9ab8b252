"""``empty-migrate audit`` on the real inspect_evals 0.26.0, pristine and migrated.

The pristine tree must show today's known faults where the registry says they
are; the migrated tree must show none of them in any eval the migration routes.
"""

import os
import re
import time
from collections import Counter
from pathlib import Path

import pytest

from empty_migrate.analysis.scan import scan_repo
from empty_migrate.audit.html import render_html
from empty_migrate.audit.matrix import Audit
from empty_migrate.audit.report import not_run_by_reason
from empty_migrate.cli.main import main
from empty_migrate.registry.loader import load_registry
from tests.audit.browser import dump_dom, have_chromium, screenshot

pytestmark = pytest.mark.corpus

JUDGED_EMPTY = re.compile(
    r"^empty[^;.]*?(sent to|passed to|reaches|goes to)[^;]*?"
    r"(judge|grader|classifier|model_graded)",
    re.IGNORECASE,
)
"""A registry ``today`` saying an empty completion is sent to a judge."""
SCREENSHOT_COPY = "EMPTY_MIGRATE_AUDIT_SCREENSHOT"
"""Set it to a file path to keep the browser's screenshot of the page for review."""


def audit_of(tree: Path, target_env, out: Path) -> Audit:
    started = time.monotonic()
    args = ["audit", "--all", "--repo", str(tree), "--format", "json"]
    args += ["--python", str(target_env.python), "--output", str(out)]
    assert main(args) == 0
    audit = Audit.from_json(out.read_text())
    print(f"\naudit of {tree}: {time.monotonic() - started:.0f} s")
    report(audit)
    return audit


def report(audit: Audit) -> None:
    faults = Counter(f for row in audit.rows for f in row.faults)
    grouped = not_run_by_reason(audit.not_run)
    print(f"  {len(audit.rows)} rows, faults {dict(faults)}")
    print(f"  not run: {sum(map(len, grouped.values()))} scorers")
    for reason, names in grouped.items():
        print(f"    {reason} ({len(names)})")


@pytest.fixture(scope="module")
def pristine_audit(inspect_evals_tree, target_env, tmp_path_factory) -> Audit:
    out = tmp_path_factory.mktemp("audit") / "pristine.json"
    return audit_of(inspect_evals_tree, target_env, out)


@pytest.fixture(scope="module")
def migrated_audit(migrated_tree, target_env, tmp_path_factory) -> Audit:
    out = tmp_path_factory.mktemp("audit") / "migrated.json"
    return audit_of(migrated_tree[0], target_env, out)


def empty_rows(audit: Audit, eval_name: str) -> list:
    return [r for r in audit.rows if r.eval == eval_name and r.outcome == "empty"]


def test_pristine_shows_the_judge_on_empty_output_where_the_registry_says(
    pristine_audit,
):
    registry = load_registry()
    said = [
        n for n, e in sorted(registry.evals.items()) if JUDGED_EMPTY.search(e.today)
    ]
    checked, unchecked = [], []
    for name in said:
        # a scorer that asked its judge and then raised on the mock's reply counts
        ran = [
            r for r in empty_rows(pristine_audit, name) if r.judge_calls or not r.raised
        ]
        if not ran:
            unchecked.append(name)
            continue
        checked.append(name)
        assert any("judge_on_non_answer" in r.faults for r in ran), name
    print(f"judge on empty output confirmed in {checked}; not runnable: {unchecked}")
    assert len(checked) >= 11  # all but the three that build only online


def test_pristine_shows_every_runnable_preset_verdict(
    pristine_audit, inspect_evals_tree
):
    presets = {
        name: scan.preset_calls
        for name, scan in scan_repo(inspect_evals_tree).items()
        if scan.preset_calls
    }
    assert sum(map(len, presets.values())) == 7
    not_run = {n.eval for n in pristine_audit.not_run}
    found = {
        name
        for name in presets
        if any(
            "preset_without_outcome" in r.faults
            for r in empty_rows(pristine_audit, name)
        )
    }
    missing = set(presets) - found
    print(f"preset verdicts found in {sorted(found)}; not runnable: {sorted(missing)}")
    assert {"fortress", "frontierscience", "uccb", "xstest"} <= found
    assert missing <= not_run


def test_pristine_shows_frontierscience_dead_check(pristine_audit):
    [row] = [
        r
        for r in empty_rows(pristine_audit, "frontierscience")
        if r.scorer == "research_scorer"
    ]

    assert row.faults == ["judge_on_non_answer", "dead_check"]


def test_migrated_tree_has_no_known_fault_in_any_migrated_eval(migrated_audit):
    registry = load_registry()
    left = Counter(row.eval for row in migrated_audit.rows if row.faults)

    print(f"faults left only in evals the migration leaves to people: {dict(left)}")
    migrated = [name for name in left if registry.get(name).codemods != "manual"]
    assert not migrated, {name: left[name] for name in migrated}


@pytest.mark.skipif(not have_chromium(), reason="chromium is not installed")
def test_the_comparison_page_renders_every_eval_in_a_browser(
    pristine_audit, migrated_audit, tmp_path
):
    page = tmp_path / "compare.html"
    page.write_text(render_html(migrated_audit, pristine_audit))

    dom = dump_dom(page)
    shot = screenshot(page, tmp_path / "audit.png", fragment="#category=model_graded")
    if os.environ.get(SCREENSHOT_COPY):
        Path(os.environ[SCREENSHOT_COPY]).write_bytes(shot.read_bytes())

    evals = {row.eval for row in migrated_audit.rows}
    rendered = set(re.findall(r"<tr class=\"line[^\"]*\"[^>]*><th>([\w-]+)</th>", dom))
    assert rendered == evals
    assert dom.count('class="cell route-') >= len(evals) * 10


def test_without_python_the_audit_uses_the_cached_environment_for_the_tree(
    inspect_evals_tree, target_env, tmp_path, monkeypatch, capsys
):
    # the cached environment for 0.26.0 is the one the corpus checks built
    monkeypatch.delenv("EMPTY_MIGRATE_TARGET_ENV", raising=False)
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path))
    (tmp_path / "target-env-0.26.0").symlink_to(target_env.root)

    code = main(["audit", "--eval", "gpqa", "--repo", str(inspect_evals_tree)])

    out = capsys.readouterr().out
    assert code == 0
    assert "gpqa / gpqa_diamond" in out
