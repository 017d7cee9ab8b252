"""Rows, routes, faults, comparison and renderings, from real scorers' scores."""

import json

import pytest
from inspect_ai.scorer import match

from empty_migrate.audit.matrix import Audit, NotRun, build_audit, plan
from empty_migrate.audit.report import compare_json, render_compare_text, render_text
from empty_migrate.registry.loader import load_registry
from empty_migrate.runtime.policy import Outcome
from empty_migrate.runtime.router import route_empty_responses
from tests.audit.small import (
    DEAD_CHECK,
    demo_tree,
    judge_then_routed,
    judged,
    preset_score_on_no_response,
    small_audit,
)

pytestmark = pytest.mark.inspect_versions

NON_ANSWERS = [str(o) for o in Outcome if o is not Outcome.ANSWERED]
REQUIRED = {"eval", "task", "scorer", "fixture", "outcome", "value", "reason"}
REQUIRED |= {"judge_calls", "raised", "route", "empty_outcome", "category"}


@pytest.fixture
def tree(tmp_path):
    return demo_tree(tmp_path)


def by_outcome(audit: Audit) -> dict:
    return {row.outcome: row for row in audit.rows}


def test_an_unrouted_judge_grades_every_non_answer_and_each_is_a_fault(tree):
    before, _ = judge_then_routed(tree)
    rows = by_outcome(before)

    assert set(rows) == {str(o) for o in Outcome}
    assert all(row.route == "judge" and row.judge_calls == 1 for row in rows.values())
    assert rows["answered"].faults == []
    assert all(rows[o].faults == ["judge_on_non_answer"] for o in NON_ANSWERS)


def test_the_routed_judge_is_spared_and_each_outcome_takes_its_policy_route(tree):
    _, after = judge_then_routed(tree)
    rows = by_outcome(after)

    assert not any(row.faults for row in after.rows)
    assert rows["answered"].route == "judge"
    assert rows["empty"].route == "wrong" and rows["empty"].value == "N"
    assert rows["empty"].empty_outcome == "empty"
    assert rows["filtered"].route == "unscored" and rows["filtered"].unscored
    assert rows["overflow"].route == "raised"
    assert rows["overflow"].raised == "ContextOverflowError"
    assert rows["no_output"].raised == "EmptyResponseError"
    assert all(rows[o].judge_calls == 0 for o in NON_ANSWERS)


def test_a_preset_verdict_with_no_outcome_recorded_is_a_fault(tree):
    audit = small_audit(tree, {"preset": preset_score_on_no_response(judged())})
    rows = by_outcome(audit)

    assert rows["empty"].route == "wrong" and rows["empty"].reason == "no_response"
    assert rows["empty"].faults == ["preset_without_outcome"]
    # refusal text is not empty: the preset lets it through to the judge
    assert rows["refused"].faults == ["judge_on_non_answer"]


def test_a_verdict_equal_to_the_refusal_value_counts_as_refusal(tree):
    routed = route_empty_responses(judged(), category="safety", refusal_verdict="I")
    audit = small_audit(tree, {"s": routed}, category="safety", refusal_verdict="I")
    rows = by_outcome(audit)

    assert rows["empty"].route == "refusal" and rows["refused"].route == "refusal"
    assert rows["truncated"].route == "unscored"
    assert not any(row.faults for row in audit.rows)


def test_a_builtin_scorer_that_tags_no_response_counts_as_wrong_without_fault(tree):
    rows = by_outcome(small_audit(tree, {"match": match()}, category="qa"))

    assert rows["empty"].route == "wrong" and rows["empty"].reason == "no_response"
    assert not any(row.faults for row in rows.values())


def test_a_dead_check_in_the_scorer_file_marks_empty_output_reaching_the_judge(
    tmp_path,
):
    audit = small_audit(demo_tree(tmp_path, DEAD_CHECK), {"grader": judged()})
    rows = by_outcome(audit)

    assert rows["empty"].faults == ["judge_on_non_answer", "dead_check"]
    assert rows["no_output"].faults == ["judge_on_non_answer", "dead_check"]
    # the refusal has text: an empty check was never meant to catch it
    assert rows["refused"].faults == ["judge_on_non_answer"]


def test_a_scorer_without_a_result_is_listed_as_not_run_with_the_reason(tree):
    registry = load_registry()
    planned = plan(registry, ["xstest"])
    results = {planned[0].job_key: {"not_run": "import: ModuleNotFoundError: x"}}

    audit = build_audit(tree, planned, results)

    assert audit.rows == []
    assert len(audit.not_run) == len(planned)
    assert audit.not_run[0].reason == "import: ModuleNotFoundError: x"
    assert all(n.reason == "the worker gave no result" for n in audit.not_run[1:])


def test_plan_resolves_every_scorer_entry_per_task():
    registry = load_registry()
    planned = plan(registry, ["fortress"])

    pairs = {(p.task, p.scorer.name) for p in planned}
    assert pairs == {
        ("fortress_adversarial", "fortress_scorer_adversarial"),
        ("fortress_benign", "fortress_scorer_benign"),
    }
    benign = next(p for p in planned if p.task == "fortress_benign")
    assert benign.settings.refusal_verdict == "C"
    assert benign.job()["module"] == "inspect_evals.fortress.scorer"


def test_json_rows_carry_the_documented_keys_and_read_back(tree):
    _, after = judge_then_routed(tree)
    after.not_run.append(NotRun("demo", None, "other", "build: TypeError: x"))

    document = json.loads(after.to_json())
    again = Audit.from_json(after.to_json())

    assert all(REQUIRED <= row.keys() for row in document["rows"])
    assert again == after


def test_reading_something_that_is_not_an_audit_is_a_value_error():
    with pytest.raises(ValueError, match="not an empty-migrate audit"):
        Audit.from_json("[1, 2]")


def test_text_shows_the_grid_the_faults_per_eval_and_what_did_not_run(tree):
    before, _ = judge_then_routed(tree)
    before.not_run.append(NotRun("demo", "demo_task", "x", "build: TypeError: y"))

    text = render_text(before)

    assert "demo / grader [demo_task]" in text
    assert text.count("judge!") == len(NON_ANSWERS)
    assert "demo: judge_on_non_answer x9" in text
    assert "not run (1 scorers):\n  build: TypeError: y: demo/x" in text


def test_compare_matches_rows_and_shows_each_changed_cell(tree):
    before, after = judge_then_routed(tree)

    text = render_compare_text(before, after)
    matched = json.loads(compare_json(before, after))["rows"]

    assert "  empty                 judge ('C', reason None, judge x1)" in text
    assert "-> wrong ('N', reason no_response)" in text
    changed = {row["fixture"] for row in matched if row["changed"]}
    assert len(matched) == len(Outcome) and len(changed) == len(NON_ANSWERS)
    assert "after:\nfaults (0 evals):\n  none" in text


def test_comparing_an_audit_with_itself_changes_nothing(tree):
    before, _ = judge_then_routed(tree)

    assert "no cell changed" in render_compare_text(before, before)


def test_a_no_answer_verdict_on_the_judges_own_scale_still_counts_as_wrong(tree):
    # niah's verdict is 1.0, the lowest grade of its 1-10 judge, not 0
    routed = route_empty_responses(
        judged(), category="model_graded", no_answer_verdict=1.0
    )
    rows = by_outcome(small_audit(tree, {"grader": routed}, no_answer_verdict=1.0))

    assert (rows["empty"].value, rows["empty"].route) == (1.0, "wrong")
    assert rows["answered"].route == "judge"
