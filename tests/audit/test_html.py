"""The HTML page, checked in a real headless browser."""

import re

import pytest

from empty_migrate.audit.html import render_html
from empty_migrate.runtime.policy import Outcome
from tests.audit.browser import dump_dom, needs_chromium
from tests.audit.small import demo_tree, judge_then_routed, two_categories


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
