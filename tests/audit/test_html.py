"""The HTML page, checked in a real headless browser."""

import re

import pytest

from empty_migrate.audit.html import render_html
from empty_migrate.audit.matrix import Audit
from empty_migrate.runtime.policy import Outcome
from tests.audit.browser import dump_dom, needs_chromium
from tests.audit.small import (
    demo_tree,
    judge_then_routed,
    needs_metadata,
    small_audit,
    two_categories,
)


@pytest.fixture
def tree(tmp_path):
    return demo_tree(tmp_path / "tree")


def rows_of(dom: str) -> list[str]:
    return re.findall(r"<tr class=\"line[^\"]*\"[^>]*>", dom)


def test_the_page_is_self_contained_with_a_legend_and_the_not_run_list(tree):
    page = render_html(two_categories(tree))

    assert "<script src" not in page and "<link" not in page and "http" not in page
    assert "sent to the judge" in page and "counts as refusal" in page
    assert 'id="not-run"' in page


@needs_chromium
def test_the_browser_draws_every_cell_with_its_route_and_filters_by_category(
    tree, tmp_path
):
    page = tmp_path / "audit.html"
    page.write_text(render_html(two_categories(tree)))

    everything = dump_dom(page)
    safety_only = dump_dom(page, fragment="#category=safety")

    cells = re.findall(r'<td class="cell route-(\w+)', everything)
    assert len(cells) == 2 * len(Outcome)
    assert {"judge", "wrong"} <= set(cells)
    assert len(rows_of(everything)) == 2
    assert not any("hidden" in row for row in rows_of(everything))
    shown = [row for row in rows_of(safety_only) if "hidden" not in row]
    assert len(shown) == 1 and 'data-category="safety"' in shown[0]
    [link] = re.findall(r'<a [^>]*data-category="safety"[^>]*>', safety_only)
    assert "active" in link


@needs_chromium
def test_a_comparison_shows_before_and_after_in_each_changed_cell(tree, tmp_path):
    before, after = judge_then_routed(tree)
    page = tmp_path / "compare.html"
    page.write_text(render_html(after, before))

    dom = dump_dom(page)

    changed = re.findall(r'<td class="cell route-\w+[^"]* changed[^"]*"', dom)
    assert len(changed) == len(Outcome) - 1
    assert "judge ! → wrong" in dom
    assert "rows with a known fault: 9 → 0" in dom


def with_not_measured(tree) -> Audit:
    """Two categories, and a qa scorer that fails offline for its own reasons."""
    audit = two_categories(tree)
    failing = small_audit(tree, {"needs_metadata": needs_metadata()}, category="qa")
    return Audit(audit.tree, audit.rows + failing.rows, [])


def test_not_measured_is_a_grey_route_in_the_legend_with_its_meaning(tree):
    page = render_html(with_not_measured(tree))

    [colour] = re.findall(
        r"\.route-not_measured \{ background: #(\w\w)(\w\w)(\w\w)", page
    )
    assert len(set(colour)) == 1  # red, green and blue alike: a grey
    assert '<span class="chip route-not_measured" title="the scorer fails' in page
    assert "10 rows not measured" in page
    # no fault: "faults only" hides the line
    assert re.search(r'<tr class="line" [^>]*><th>demo</th>[^\n]*needs_metadata', page)


@needs_chromium
def test_a_not_measured_cell_is_grey_with_its_error_and_the_filters_still_work(
    tree, tmp_path
):
    page = tmp_path / "audit.html"
    page.write_text(render_html(with_not_measured(tree)))

    # one run of the browser: the rows the filter hides are still in the DOM
    dom = dump_dom(page, fragment="#category=safety")

    cells = re.findall(r'<td class="cell route-not_measured"([^>]*)>([^<]*)<', dom)
    assert len(cells) == len(Outcome)
    assert all("not measured: KeyError: 'evaluation'" in attrs for attrs, _ in cells)
    assert {text for _, text in cells} == {"not measured"}
    assert "cell route-raised" not in dom
    [section] = re.findall(r'<section id="not-measured">.*?</section>', dom)
    assert "KeyError: 'evaluation'</code> (1): demo/needs_metadata" in section
    shown = [row for row in rows_of(dom) if "hidden" not in row]
    assert len(rows_of(dom)) == 3 and len(shown) == 1
    assert 'data-category="safety"' in shown[0]
