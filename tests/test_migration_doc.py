"""MIGRATION.md states the policy the router implements, cell for cell."""

import re
from pathlib import Path

import pytest

from empty_migrate.cli.policy_table import describe_route, policy_markdown
from empty_migrate.runtime.router import Category, Outcome

DOC = (Path(__file__).parents[1] / "MIGRATION.md").read_text()


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


def test_every_cell_has_its_route_and_a_reason():
    rows = table_rows("## 4. Why each cell")
    cells = {(row[0].strip("`"), row[1]): row for row in rows}
    assert len(rows) == len(cells) == len(Outcome) * len(Category)
    for outcome in Outcome:
        for category in Category:
            _, _, route, why = cells[(outcome.value, category.value)]
            assert route == describe_route(category, outcome), (outcome, category)
            assert len(why.split()) >= 5, (outcome, category)


@pytest.mark.parametrize("gap", range(1, 12))
def test_every_survey_gap_is_closed(gap):
    rows = {row[0]: row for row in table_rows("## 8. How the 11 gaps")}
    _, problem, closed_by = rows[str(gap)]
    assert problem and len(closed_by.split()) >= 5
