"""Comments on code a codemod changed are flagged for review; others are not.

The rule is checked on hand-written before/after texts (`CommentReview`), then
through `run_file` with the real codemods on small scorer modules in the
shapes of inspect_evals' own, and in the CLI's summary, JSON and PR text.
"""

import json
import textwrap

import pytest

from empty_migrate.cli.main import main
from empty_migrate.codemods import implementation
from empty_migrate.delivery.pull_request import render
from empty_migrate.pipeline.comment_review import CommentReview, ReviewNote, follow
from empty_migrate.pipeline.formatter import Formatter
from empty_migrate.pipeline.runner import run_file
from tests.delivery.campaigns import gamma_branch as _branch
from tests.demo import SCORER_PATH, choice_entry, choice_task, scorer_target

ENTRY, TASK = choice_entry("gamma"), choice_task("gamma")


def review(before: str, *steps: tuple[str, str]) -> tuple[ReviewNote, ...]:
    """The notes after rewriting `before` into each (text, codemod) in turn."""
    tracker = CommentReview(textwrap.dedent(before))
    for text, codemod in steps:
        tracker.rewritten(textwrap.dedent(text), codemod)
    return tracker.notes()


FACTORY = """\
@scorer(metrics=[accuracy()])
def demo_scorer() -> Scorer:
    # Grade with the default template.
    grader = model_graded_qa()
    # An empty response answers nothing, so it is incorrect.
    return {call}
"""


def test_a_comment_above_a_rewritten_statement_is_flagged_and_its_neighbour_not():
    notes = review(
        FACTORY.format(call="preset_score_on_no_response(grader, INCORRECT)"),
        (FACTORY.format(call="route_empty_responses(grader)"), "replace_preset"),
    )
    assert notes == (
        ReviewNote(
            5,
            "# An empty response answers nothing, so it is incorrect.",
            ("replace_preset",),
        ),
    )
    assert notes[0].describe("demo/scorer.py") == (
        "demo/scorer.py:5: comment above changed code (replace_preset): "
        '"# An empty response answers nothing, so it is incorrect."'
    )


def test_nothing_is_flagged_when_only_formatting_or_other_code_changed():
    before = FACTORY.format(call="preset_score_on_no_response(grader, INCORRECT)")
    reflowed = before.replace(
        "(grader, INCORRECT)", "(\n        grader,\n        INCORRECT,\n    )"
    )
    assert review(before, (reflowed, None)) == ()
    moved = before.replace("model_graded_qa()", "model_graded_qa(template=T)")
    assert review(before, (moved, "wrap_router")) == (
        ReviewNote(3, "# Grade with the default template.", ("wrap_router",)),
    )


def test_comments_the_codemods_wrote_are_never_flagged():
    before = """\
    def solver():
        async def solve(state, generate):
            state = await generate(state)
            return await judge(state)
    """
    guarded = """\
    def solver():
        async def solve(state, generate):
            state = await generate(state)
            # The router scores non-answers without a verdict: skip the judge.
            if classify(state.output) is not Outcome.ANSWERED:
                return state
            return await judge(state)
    """
    changed_again = guarded.replace("is not Outcome.ANSWERED", "is Outcome.EMPTY")
    notes = review(before, (guarded, "judge_bypass"), (changed_again, "other"))
    assert notes == ()
    rewritten = guarded.replace("# The router", "# Now the router")
    assert review(before, (guarded, "judge_bypass"), (rewritten, "other")) == ()


def test_a_block_of_comment_lines_is_one_note_with_every_codemod_that_changed_it():
    before = """\
    async def score(state, target):
        # Check for missing output; nothing to grade
        # without it.
        if not state.output:
            return Score(value=0.0)
        return await grade(state)
    """
    checked = before.replace(
        "if not state.output:", "if classify(state.output) is Outcome.NO_OUTPUT:"
    )
    tagged = checked.replace("value=0.0)", 'value=0.0, reason="no_response")')
    notes = review(before, (checked, "replace_dead_check"), (tagged, "fix_reason_tag"))
    assert notes == (
        ReviewNote(
            2,
            "# Check for missing output; nothing to grade\n# without it.",
            ("replace_dead_check", "fix_reason_tag"),
        ),
    )


def test_a_trailing_comment_on_a_changed_line_is_flagged():
    before = "x = preset(grader, INCORRECT)  # empty is wrong\ny = 1  # unrelated\n"
    after = "x = route(grader)  # empty is wrong\ny = 1  # unrelated\n"
    assert review(before, (after, "replace_preset")) == (
        ReviewNote(1, "# empty is wrong", ("replace_preset",), trailing=True),
    )


TASK_CALL = """\
def demo():
    # define the task
    return Task(
        dataset=dataset,
        # {comment}
        scorer={scorer},
    )
"""


def test_a_comment_above_a_multiline_call_is_about_its_first_line_only():
    before = TASK_CALL.format(comment="grade with a judge", scorer="grader()")
    after = TASK_CALL.format(comment="grade with a judge", scorer="route(grader())")
    assert review(before, (after, "wrap_router")) == (
        ReviewNote(5, "# grade with a judge", ("wrap_router",)),
    )


@pytest.mark.parametrize(
    "before, after",
    [
        (
            "x = f(a)  # noqa: E501\n",
            "x = g(a)  # noqa: E501\n",
        ),
        (
            "# scoring helpers\nfrom m import preset, other\n\nX = 1\n",
            "# scoring helpers\nfrom m import other\n\nX = 1\n",
        ),
        (
            "# a section\n\nx = f(a)\n",
            "# a section\n\nx = g(a)\n",
        ),
        (
            "@scorer(metrics=[])\n# the scorer\ndef s():\n    return f()\n",
            "@scorer(metrics=[])\n# the scorer\ndef s():\n    return g()\n",
        ),
    ],
    ids=["pragma", "import", "blank-line-between", "body-of-a-definition"],
)
def test_what_is_not_flagged(before, after):
    assert review(before, (after, "some_codemod")) == ()


def test_a_text_that_does_not_parse_has_no_notes():
    assert review("x = (\n", ("x = 1  # c\n", "c")) == ()


def test_notes_follow_their_comment_to_its_line_after_formatting():
    note = ReviewNote(2, "# why", ("replace_preset",))
    before = "import a\n# why\nx = f()\n"
    after = "import a\n\n\n# why\nx = f()\n"
    assert follow((note,), before, after) == (ReviewNote(4, "# why", note.codemods),)
    assert follow((note,), before, "import a\nx = f()\n") == ()


HEADER = """\
import logging

from inspect_ai.scorer import (
    INCORRECT,
    Score,
    Scorer,
    Target,
    accuracy,
    model_graded_qa,
    scorer,
)
from inspect_ai.solver import TaskState

from inspect_evals.utils.scorers import preset_score_on_no_response

logger = logging.getLogger(__name__)
"""

PRESET_FACTORY = """\


@scorer(metrics=[accuracy()])
def demo_scorer() -> Scorer:
    # Grade against the reference answer.
    grader = model_graded_qa()

    # An empty response gives the user nothing, so it scores as wrong.
    return preset_score_on_no_response(grader, INCORRECT)
"""

PRESET_REGISTRY = """\
category: model_graded
polarity: neutral
output: state.output
judge: scorer
today: "empty completion -> preset INCORRECT (demo/scorer.py::demo_scorer)"
codemods: [replace_preset]
tasks:
  demo: {}
scorers:
  - name: demo_scorer
    file: demo/scorer.py
    construct: factory
"""

DEAD_CHECK_FACTORY = """\


@scorer(metrics=[accuracy()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        # Without output there is nothing to grade.
        if not state.output:
            logger.warning("no output")
            return Score(value=INCORRECT, explanation="no output")

        # Grade the answer.
        return Score(value=grade(state.output.completion, target.text))

    return score
"""

DEAD_CHECK_REGISTRY = PRESET_REGISTRY.replace(
    "[replace_preset]", "[replace_dead_check, fix_reason_tag]"
).replace("judge: scorer", "judge: none")


def migrate_file(tmp_path, source, registry, names):
    target = scorer_target(tmp_path, source, registry)
    codemods = [implementation(name) for name in names]
    return run_file(source, SCORER_PATH, codemods, target, Formatter(tmp_path))


def test_run_file_flags_the_comment_over_a_replaced_preset(tmp_path):
    source = HEADER + PRESET_FACTORY
    result = migrate_file(tmp_path, source, PRESET_REGISTRY, ["replace_preset"])
    assert result.status == "rewritten"
    comment = "# An empty response gives the user nothing, so it scores as wrong."
    [note] = result.review
    assert (note.comment, note.codemods) == (comment, ("replace_preset",))
    lines = result.after.splitlines()
    assert lines[note.line - 1].strip() == comment
    assert lines[note.line].strip().startswith("return route_empty_responses(")


def test_run_file_flags_the_comment_over_a_replaced_dead_check(tmp_path):
    source = HEADER.replace(
        "from inspect_evals.utils.scorers import preset_score_on_no_response\n", ""
    ) + DEAD_CHECK_FACTORY.replace("model_graded_qa,\n", "")
    names = ["replace_dead_check", "fix_reason_tag"]
    result = migrate_file(tmp_path, source, DEAD_CHECK_REGISTRY, names)
    assert result.status == "rewritten", result.reason
    [note] = result.review
    assert note.comment == "# Without output there is nothing to grade."
    assert note.codemods == ("replace_dead_check", "fix_reason_tag")
    assert "Outcome.NO_OUTPUT" in result.after.splitlines()[note.line]


STALE_TASK = TASK.replace(
    "    return Task(",
    "    # choice() scores an empty answer as it does any other.\n    return Task(",
)


@pytest.fixture
def stale_repo(demo):
    """A one-eval tree whose task has a comment over its scorer."""
    demo.add_eval("gamma", {"gamma.py": STALE_TASK}, ENTRY)
    return demo.repo, demo.registry


def run_cli(stale_repo, *args):
    root, registry = stale_repo
    only = ["--only", "install_router", "--only", "replace_preset"]
    only += ["--only", "wrap_router"]
    return main(
        ["--eval", "gamma", "-v", "--repo", str(root), "--registry", str(registry)]
        + only
        + list(args)
    )


def test_the_summary_and_the_json_carry_the_review(stale_repo, capsys):
    assert run_cli(stale_repo, "--dry-run") == 0
    err = capsys.readouterr().err
    assert (
        "  review: src/inspect_evals/gamma/gamma.py:9: comment above changed code "
        '(wrap_router): "# choice() scores an empty answer as it does any other."'
    ) in err.splitlines()
    assert run_cli(stale_repo, "--dry-run", "--format", "json") == 0
    data = json.loads(capsys.readouterr().out)
    files = {f["path"]: f for f in data["evals"][0]["files"]}
    assert files["src/inspect_evals/gamma/gamma.py"]["review"] == [
        {
            "line": 9,
            "comment": "# choice() scores an empty answer as it does any other.",
            "codemods": ["wrap_router"],
            "trailing": False,
        }
    ]
    router = "src/inspect_evals/utils/empty_response.py"
    assert files[router]["review"] == []


def test_the_pr_text_lists_the_comments_to_review():
    note = ReviewNote(7, "# empty is `I`", ("replace_preset",))
    branch = _branch()
    result = branch.results[0]
    result.files = [
        *result.files,
        _rewritten("src/inspect_evals/gamma/gamma.py", (note,)),
        _rewritten("src/inspect_evals/other/other.py", (note,)),  # not on the branch
    ]
    text = render(branch, None)
    section = text.split("### Comments to review\n\n")[1].split("\n### ")[0]
    assert "`src/inspect_evals/gamma/gamma.py:7`, above code changed by " in section
    assert "`replace_preset`:\n\n  ```python\n  # empty is `I`\n  ```" in section
    assert "other.py" not in section
    assert "### Comments to review" not in render(_branch(), None)


def _rewritten(path, notes):
    from empty_migrate.pipeline.runner import FileResult

    return FileResult(path, "rewritten", "a\n", "b\n", ("replace_preset",), None, notes)
