"""A scorer's own failure is *not measured*, never the policy's ``raised``."""

import json
import re

import pytest

from empty_migrate.audit.html import render_html
from empty_migrate.audit.matrix import Audit, faults_of, router_errors
from empty_migrate.audit.report import compare_json, render_compare_text, render_text
from empty_migrate.runtime.policy import Outcome
from empty_migrate.runtime.router import route_empty_responses
from tests.audit.small import (
    demo_tree,
    first_word,
    judge_then_fails,
    needs_metadata,
    raises_non_answer,
    small_audit,
)

pytestmark = pytest.mark.inspect_versions

NON_ANSWERS = [str(o) for o in Outcome if o is not Outcome.ANSWERED]


@pytest.fixture
def tree(tmp_path):
    return demo_tree(tmp_path)


def by_outcome(audit: Audit) -> dict:
    return {row.outcome: row for row in audit.rows}


def unrouted_and_routed(tree) -> tuple[Audit, Audit]:
    """A scorer reading metadata the sample lacks, and wrapped by the router."""
    routed = route_empty_responses(needs_metadata(), category="qa")
    return (
        small_audit(tree, {"needs_metadata": needs_metadata()}, category="qa"),
        small_audit(tree, {"needs_metadata": routed}, category="qa"),
    )


def test_a_scorer_failing_on_every_fixture_for_its_own_reasons_is_not_measured(tree):
    audit, _ = unrouted_and_routed(tree)

    assert len(audit.rows) == len(Outcome)
    for row in audit.rows:
        assert row.route == "not_measured", row.outcome
        assert (row.raised, row.raised_message) == ("KeyError", "'evaluation'")
        assert row.faults == [] and faults_of(row, "demo/scorer.py", []) == []


def test_a_scorer_failing_only_on_empty_text_keeps_raised(tree):
    rows = by_outcome(small_audit(tree, {"first": first_word()}, category="qa"))

    assert rows["answered"].raised is None and rows["answered"].route == "wrong"
    assert rows["empty"].route == "raised" and rows["empty"].raised == "IndexError"
    assert rows["refused"].raised is None
    assert not any(row.route == "not_measured" for row in rows.values())


def test_the_routers_errors_stay_raised_beside_the_scorers_own_failure(tree):
    _, routed = unrouted_and_routed(tree)
    rows = by_outcome(routed)

    assert rows["answered"].route == "not_measured"
    assert (rows["no_output"].route, rows["no_output"].raised) == (
        "raised",
        "EmptyResponseError",
    )
    assert (rows["overflow"].route, rows["overflow"].raised) == (
        "raised",
        "ContextOverflowError",
    )
    assert rows["empty"].route == "wrong" and rows["empty"].raised is None


def test_the_routers_base_error_is_raised_even_on_the_answered_fixture(tree):
    audit = small_audit(tree, {"router": raises_non_answer()}, category="qa")

    assert {row.raised for row in audit.rows} == {"NonAnswerError"}
    assert {row.route for row in audit.rows} == {"raised"}


def test_router_errors_name_every_class_of_the_routers_hierarchy():
    assert router_errors() == {
        "NonAnswerError",
        "EmptyResponseError",
        "ContextOverflowError",
    }


def test_a_judge_asked_before_the_failure_keeps_raised_and_its_fault(tree):
    rows = by_outcome(small_audit(tree, {"judged": judge_then_fails()}))

    assert {row.route for row in rows.values()} == {"raised"}
    assert rows["answered"].judge_calls == 1 and rows["answered"].faults == []
    assert all(rows[o].faults == ["judge_on_non_answer"] for o in NON_ANSWERS)


def test_json_carries_the_route_and_the_error_and_reads_back(tree):
    audit, _ = unrouted_and_routed(tree)

    document = json.loads(audit.to_json())

    assert "not_measured" in document["routes"] and document["not_measured"]
    [answered] = [r for r in document["rows"] if r["outcome"] == "answered"]
    assert answered["route"] == "not_measured"
    assert (answered["raised"], answered["raised_message"]) == (
        "KeyError",
        "'evaluation'",
    )
    assert Audit.from_json(audit.to_json()) == audit


def test_an_audit_saved_before_the_route_existed_is_read_by_the_same_rule(tree):
    audit, _ = unrouted_and_routed(tree)
    first = small_audit(tree, {"first": first_word()}, category="qa")
    old = json.loads(Audit(audit.tree, audit.rows + first.rows, []).to_json())
    del old["routes"]["not_measured"], old["not_measured"]
    for row in old["rows"]:
        row["route"] = "raised" if row["raised"] else row["route"]

    again = Audit.from_json(json.dumps(old))

    routes = {(r.scorer, r.outcome): r.route for r in again.rows}
    assert {routes["needs_metadata", o] for o in Outcome} == {"not_measured"}
    assert routes["first", "empty"] == "raised"
    assert again.rows == audit.rows + first.rows


def test_text_marks_the_cells_and_lists_the_scorers_by_error(tree):
    audit, _ = unrouted_and_routed(tree)

    text = render_text(audit)

    [line] = [ln for ln in text.splitlines() if ln.startswith("demo / needs_metadata")]
    assert line.split()[-len(Outcome) :] == ["n/m"] * len(Outcome)
    assert (
        "not measured (1 scorers):\n  KeyError: 'evaluation': demo/needs_metadata"
        in (text)
    )
    assert "n/m marks a cell not measured: the scorer fails" in text
    assert "faults (0 evals):" in text


def test_not_measured_to_a_route_is_not_comparable_rather_than_a_fix(tree):
    before, after = unrouted_and_routed(tree)

    text = render_compare_text(before, after)
    matched = {r["fixture"]: r for r in json.loads(compare_json(before, after))["rows"]}

    assert "not measured (KeyError) -> wrong ('N', reason no_response)" in text
    assert text.count("(not comparable)") == len(NON_ANSWERS)
    assert "no cell changed\n9 cells not comparable: not measured before or after" in (
        text
    )
    assert not any(row["changed"] for row in matched.values())
    assert sum(not row["comparable"] for row in matched.values()) == len(Outcome)


def test_the_compared_page_marks_those_cells_not_comparable_not_changed(tree):
    before, after = unrouted_and_routed(tree)

    page = render_html(after, before)

    assert len(re.findall(r"<td class=\"[^\"]* not-comparable", page)) == len(
        NON_ANSWERS
    )
    assert "0 lines changed" in page and "9 cells not comparable" in page
    assert "not measured → wrong" in page
