"""Score every answered provider output with every routed scorer of one tree.

Run with the target's environment and one inspect_evals tree first on the path:

    python tests/in_target/score_answers.py OUT.json

For each scorer construct the migration routes (registry entries with
``wrap_router`` or ``replace_preset``), it builds the scorer as its eval's code
does with default arguments and scores each answered output of the fixture
library in one offline eval() (any judge is a scripted ``mockllm`` model), then
writes what each sample scored. Run on the pristine tree and on the migrated
one, the two files must agree on every answered sample
(tests/corpus/test_target_suite.py): a migration never changes the score of a
substantive answer. A scorer that cannot be built or run offline is written
as not run, with the reason.
"""

import ast
import builtins
import importlib
import json
import math
import re
import sys
from pathlib import Path
from typing import Any

from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.scorer import Scorer
from inspect_ai.solver import Generate, TaskState, solver

from empty_migrate.policy import Outcome
from empty_migrate.registry.loader import load_registry
from empty_migrate.registry.schema import resolve
from empty_migrate.testing.models import RecordingGrader, scripted_model
from empty_migrate.testing.offline import network_closed
from empty_migrate.testing.provider_outputs import PROVIDER_OUTPUTS

ANSWERS = [f for f in PROVIDER_OUTPUTS if f.expected == Outcome.ANSWERED]
ROUTING_CODEMODS = {"wrap_router", "replace_preset"}


def routed_constructs() -> list[tuple[str, Any]]:
    """(eval, scorer entry) for every construct the migration routes."""
    found = []
    for name, entry in sorted(load_registry().evals.items()):
        if not isinstance(entry.codemods, list):
            continue
        if not set(entry.codemods) & ROUTING_CODEMODS:
            continue
        for scorer in entry.scorers:
            task = (scorer.tasks or list(entry.tasks) or [None])[0]
            if scorer.rewrite and resolve(entry, task, scorer).output != "none":
                found.append((name, scorer))
    return found


def build_scorer(entry: Any) -> Scorer | list[Scorer] | str:
    """The scorer as the eval's code builds it by default, or why it cannot be.

    A factory or a helper is called with no arguments. For a
    ``Task(scorer=...)`` construct, the ``scorer=`` expression of the task
    function is evaluated in its module, which works where it names only
    module-level things (a builtin scorer and its constant arguments).
    """
    module_name = "inspect_evals." + entry.file.removesuffix(".py").replace("/", ".")
    try:
        module = importlib.import_module(module_name)
        if entry.construct_kind != "task_scorer":
            return getattr(module, entry.name)()
        expression = _task_scorer_expression(Path(module.__file__), entry.name)
        if expression is None:
            return f"no Task(scorer=...) found in {entry.name}"
        # the eval's own code, as written (builtins.eval: inspect's eval is imported)
        return builtins.eval(expression, vars(module))
    except Exception as error:  # a scorer that cannot be built offline
        return f"cannot be built: {type(error).__name__}: {_short(error)}"


def _task_scorer_expression(path: Path, function: str) -> str | None:
    source = path.read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == function:
            for call in ast.walk(node):
                if isinstance(call, ast.Call) and _called(call) == "Task":
                    for keyword in call.keywords:
                        if keyword.arg == "scorer":
                            return ast.get_source_segment(source, keyword.value)
    return None


def _called(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


@solver
def answer_from_fixture():
    """Set the sample's output to the answered fixture named by its id."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        output = next(f for f in ANSWERS if f.name == state.sample_id).output
        state.output = output
        if output.choices:
            state.messages.append(output.message)
        return state

    return solve


def score_answers(scorer: Scorer | list[Scorer], log_dir: Path) -> dict[str, Any]:
    """What each answered fixture scores, by fixture name (or its error)."""
    dataset = [
        Sample(id=f.name, input="What is the capital of France?", target="Paris")
        for f in ANSWERS
    ]
    task = Task(dataset=dataset, solver=answer_from_fixture(), scorer=scorer)
    [log] = eval(
        task,
        model=scripted_model([]),
        model_roles={"grader": RecordingGrader("GRADE: C").model},
        fail_on_error=False,
        display="none",
        log_dir=str(log_dir),
        max_samples=1,
    )
    results = {}
    for sample in log.samples or []:
        if sample.error:
            results[sample.id] = {"error": _short(sample.error.message)}
            continue
        results[sample.id] = {
            name: {
                "value": _plain(score.value),
                "answer": score.answer,
                "explanation": score.explanation,
                "reason": score.reason,
                "metadata": _plain(score.metadata or {}),
            }
            for name, score in (sample.scores or {}).items()
        }
    return results


def _plain(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    if isinstance(value, dict):
        # a chat message (a judge's conversation) has a random id in every run
        message = "role" in value and "content" in value
        return {
            str(k): _plain(v) for k, v in value.items() if not (message and k == "id")
        }
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return repr(value)


def _short(error: object) -> str:
    # the same error names the same file at another path in each tree
    import inspect_evals

    tree = str(Path(inspect_evals.__file__).parents[2])
    text = _ADDRESS.sub(" at 0x…", str(error).replace(tree, "<tree>"))
    return " ".join(text.split())[:200]


_ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def main(out: Path) -> None:
    """Write {eval/scorer: {"scores": ...} or {"not_run": reason}} to `out`."""
    report: dict[str, Any] = {}
    log_dir = out.parent / (out.stem + "-logs")
    for eval_name, entry in routed_constructs():
        key = f"{eval_name}/{entry.name}"
        scorer = build_scorer(entry)
        if isinstance(scorer, str):
            report[key] = {"not_run": scorer}
            continue
        try:
            report[key] = {"scores": score_answers(scorer, log_dir)}
        except Exception as error:  # the eval could not even start
            report[key] = {"not_run": f"{type(error).__name__}: {_short(error)}"}
    out.write_text(json.dumps(report, indent=1, sort_keys=True))


if __name__ == "__main__":
    with network_closed():
        main(Path(sys.argv[1]))
