"""Small evals whose metrics read score fields, for the metric reader's tests.

`SUBSET_EVAL` is the issue's case: a scorer copies ``human_solvable`` from the
sample's metadata into its score, and a metric computes accuracy on the
samples where ``score.metadata["human_solvable"]`` is true. The scan's tests
read it as text; the router's test loads it and runs it with inspect_ai.
"""

from pathlib import Path

from tests.demo import write_files

SUBSET_PACKAGE = "subset"
SUBSET_FILE = f"{SUBSET_PACKAGE}/scorer.py"
SUBSET_EVAL = '''\
from inspect_ai import Task, task
from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    accuracy,
    grouped,
    metric,
    scorer,
    value_to_float,
)
from inspect_ai.solver import TaskState


@metric
def human_solvable_accuracy() -> Metric:
    """Accuracy on the samples a human could solve."""
    to_float = value_to_float()

    def calculate(scores: list[SampleScore]) -> float:
        solvable = [
            s for s in scores if (s.score.metadata or {}).get("human_solvable")
        ]
        if not solvable:
            return float("nan")
        return sum(to_float(s.score.value) for s in solvable) / len(solvable)

    return calculate


@scorer(metrics=[accuracy(), human_solvable_accuracy()])
def solvable_match() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        answer = state.output.completion.strip()
        return Score(
            value=CORRECT if answer == target.text else INCORRECT,
            answer=answer,
            metadata={"human_solvable": state.metadata["human_solvable"]},
        )

    return score


@task
def subset() -> Task:
    return Task(
        dataset=[],
        scorer=solvable_match(),
        metrics=[grouped(accuracy(), "difficulty")],
    )
'''


def write_subset_eval(repo: Path) -> Path:
    """Write the subset eval into an inspect_evals tree; the module's path."""
    write_files(repo / "src/inspect_evals", {SUBSET_FILE: SUBSET_EVAL})
    return repo / "src/inspect_evals" / SUBSET_FILE
