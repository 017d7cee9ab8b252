"""Small real audits: inspect_ai's own scorers run through ``probe`` in-process.

The rows are built by the same code as a full audit's (`audit.worker` scores the
fixtures, ``audit.build_audit`` makes the rows); only the scorers differ:
inspect_ai's ``match()`` and ``model_graded_qa()``, routed or not, and a copy
of inspect_evals' ``preset_score_on_no_response`` (inspect_evals is not
installed here).
"""

import asyncio
from pathlib import Path

from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Score,
    Scorer,
    Target,
    match,
    model_graded_qa,
    scorer,
)
from inspect_ai.solver import TaskState

from empty_migrate.audit.matrix import Audit, Planned, build_audit
from empty_migrate.audit.worker import observe_fixtures
from empty_migrate.entries.schema import EvalEntry, resolve, validate_entry
from empty_migrate.runtime import probe
from empty_migrate.runtime.router import (
    NonAnswerError,
    classify_output,
    route_empty_responses,
)
from tests.demo import PACKAGE, SCORER_PATH, write_files


def preset_score_on_no_response(grader: Scorer, value: str = INCORRECT) -> Scorer:
    """inspect_evals 0.26.0's helper (utils/scorers.py:401), as it stands."""

    async def score(state: TaskState, target: Target) -> Score:
        if not state.output.completion.strip():
            return Score(
                value=value,
                answer=state.output.completion,
                explanation="Output was empty; assigned preset score without "
                "calling the grader.",
                reason="no_response",
            )
        return await grader(state, target)

    return score


@scorer(metrics=[])
def judged() -> Scorer:
    """model_graded_qa, as an eval's own ``@scorer``."""
    return model_graded_qa()


@scorer(metrics=[])
def needs_metadata() -> Scorer:
    """A scorer offline that reads a sample metadata key the synthetic sample lacks."""

    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=CORRECT if state.metadata["evaluation"] else INCORRECT)

    return score


@scorer(metrics=[])
def first_word() -> Scorer:
    """A scorer that fails on empty text only: it takes the answer's first word."""

    async def score(state: TaskState, target: Target) -> Score:
        word = state.output.completion.split()[0]
        return Score(value=CORRECT if word == target.text else INCORRECT)

    return score


@scorer(metrics=[])
def raises_non_answer() -> Scorer:
    """A scorer that raises the router's base error itself, on every sample."""

    async def score(state: TaskState, target: Target) -> Score:
        raise NonAnswerError(classify_output(state.output))

    return score


@scorer(metrics=[])
def judge_then_fails() -> Scorer:
    """persistbench offline: it asks its judge, then cannot parse the mock's reply."""

    async def score(state: TaskState, target: Target) -> Score:
        await model_graded_qa()(state, target)
        raise ValueError("Could not extract valid JSON from response")

    return score


def entry(category: str, scorer_names: list[str], **settings: object) -> EvalEntry:
    """A registry entry for a one-task eval ``demo`` with these scorers."""
    return validate_entry(
        {
            "category": category,
            "polarity": "neutral",
            "output": "state.output",
            "judge": "scorer",
            "today": "demo/scorer.py::demo_scorer",
            "codemods": "none",
            "tasks": {"demo_task": {}},
            "scorers": [
                {"name": name, "file": "demo/scorer.py", "construct": "factory"}
                for name in scorer_names
            ],
            **settings,
        }
    )


def observed(scorer_: Scorer) -> list[dict]:
    """What the worker observes of `scorer_` on every outcome fixture."""

    async def run() -> list[dict]:
        with probe.recording_judge() as judge:
            return await observe_fixtures(scorer_, judge)

    return asyncio.run(run())


def small_audit(
    tree: Path,
    scorers: dict[str, Scorer],
    category: str = "model_graded",
    eval_name: str = "demo",
    **settings: object,
) -> Audit:
    """An audit of one eval whose scorers are `scorers` (name -> scorer)."""
    registry_entry = entry(category, list(scorers), **settings)
    planned = [
        Planned(eval_name, "demo_task", s, resolve(registry_entry, "demo_task", s))
        for s in registry_entry.scorers
    ]
    results = {
        p.job_key: {"key": p.job_key, "scorers": [observed(scorers[p.scorer.name])]}
        for p in planned
    }
    return build_audit(tree, planned, results)


def demo_tree(root: Path, scorer_source: str = "") -> Path:
    """An inspect_evals-shaped tree holding ``demo/scorer.py``."""
    files = {f"{PACKAGE}/__init__.py": "", f"{PACKAGE}/demo/__init__.py": ""}
    return write_files(root, {**files, SCORER_PATH: scorer_source})


DEAD_CHECK = """\
async def score(state, target):
    if not state.output:
        return 0.0
"""


def judge_then_routed(tree: Path) -> tuple[Audit, Audit]:
    """The same model-graded eval before (judge on everything) and after routing."""
    before = small_audit(tree, {"grader": judged()})
    routed = route_empty_responses(judged(), category="model_graded")
    return before, small_audit(tree, {"grader": routed})


def two_categories(tree: Path) -> Audit:
    """An audit with a qa eval (match) and a safety eval (judged, unrouted)."""
    qa = small_audit(tree, {"match": match()}, category="qa")
    safety = small_audit(
        tree, {"judged": judged()}, category="safety", refusal_verdict="I"
    )
    for row in safety.rows:
        row.eval = "demo_safety"
    return Audit(str(tree), qa.rows + safety.rows, [])
