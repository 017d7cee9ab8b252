"""Tests that run inside the target's environment, against a migrated inspect_evals.

They import ``inspect_evals``, so they are collected only where it is installed:
``pytest -m corpus`` runs them in an isolated environment holding inspect-evals
0.26.0 and its dependencies, with the migrated tree first on the path
(tests/corpus/test_target_suite.py). Everywhere else they are not collected.
"""

import importlib.util

import pytest
from inspect_ai import Task, eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ModelOutput

from empty_migrate.testing.models import RecordingGrader, scripted_model

if importlib.util.find_spec("inspect_evals") is None:
    collect_ignore_glob = ["test_*.py"]


def run_eval(
    task: Task,
    outputs: list[ModelOutput],
    grader: RecordingGrader | None = None,
    **kwargs: object,
) -> EvalLog:
    """One offline eval() of `task`: the model answers `outputs` in order.

    Samples and epochs run one at a time, so the first output is the first
    epoch of the first sample.
    """
    roles = {"grader": grader.model} if grader else None
    [log] = eval(
        task,
        model=scripted_model(outputs),
        model_roles=roles,
        display="none",
        log_dir=str(kwargs.pop("log_dir")),
        max_samples=1,
        **kwargs,
    )
    return log


@pytest.fixture
def eval_log_dir(tmp_path):
    return tmp_path / "logs"
