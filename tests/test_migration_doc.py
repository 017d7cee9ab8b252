"""MIGRATION.md states the policy the router implements, cell for cell."""

import re
from pathlib import Path

import pytest

from empty_migrate.cli.policy_table import describe_route, policy_markdown
from empty_migrate.codemods import names
from empty_migrate.runtime.router import Category, Outcome

DOC = (Path(__file__).parents[1] / "MIGRATION.md").read_text()
SECTIONS = {int(n) for n in re.findall(r"^## (\d+)\. ", DOC, re.MULTILINE)}
MECHANISMS = {
    "router rule",
    "registry",
    "registry override",
    "documented decision",
    "documented limits",
    "measurement",
}
"""What closes a gap of section 8, besides a codemod named by its name."""


def table_rows(heading):
    section = DOC.split(heading, 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in row.strip("|").split(" | ")] for row in rows[1:]]


def test_policy_table_is_the_generated_one():
    block = re.search(
        r"<!-- policy-table:start[^\n]*-->\n(.*?)<!-- policy-table:end -->", DOC, re.S
    )
    assert block, "MIGRATION.md lost its policy-table markers"
    assert block.group(1) == policy_markdown()


def test_every_cell_has_its_route_and_a_reason_of_its_own():
    rows = table_rows("## 4. Why each cell")
    cells = {(row[0].strip("`"), row[1]): row for row in rows}
    assert len(rows) == len(cells) == len(Outcome) * len(Category)
    for outcome in Outcome:
        for category in Category:
            _, _, route, why = cells[(outcome.value, category.value)]
            assert route == describe_route(category, outcome), (outcome, category)
            assert why.endswith("."), f"not a sentence: {(outcome, category)}"
    reasons = [row[3] for row in rows]
    copied = {why for why in reasons if reasons.count(why) > 1}
    assert not copied, f"cells share one reason word for word: {copied}"


@pytest.mark.parametrize("gap", range(1, 12))
def test_every_gap_is_closed_by_a_mechanism_that_exists(gap):
    rows = {row[0]: row for row in table_rows("## 8. How the 11 gaps")}
    _, problem, closed_by = rows[str(gap)]
    assert problem
    named = re.findall(r"\*\*([^*]+)\*\*", closed_by)
    assert named, f"gap {gap} names no mechanism in bold"
    for mechanism in named:
        parts = re.split(r" and ", mechanism.lower().removesuffix(" codemod"))
        unknown = [p for p in parts if p not in MECHANISMS and p not in names()]
        assert not unknown, f"gap {gap}: {unknown} is neither a mechanism nor a codemod"
    for section in map(int, re.findall(r"\(section (\d+)\)", closed_by)):
        assert section in SECTIONS, f"gap {gap} points to a missing section {section}"
