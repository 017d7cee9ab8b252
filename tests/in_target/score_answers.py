"""Score every answered provider output with every routed scorer of one tree.

Run with the target's environment and one inspect_evals tree first on the path:

    python -m tests.in_target.score_answers OUT.json

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

import json
import math
import sys
from pathlib import Path
from typing import Any

from inspect_ai.scorer import Scorer

from empty_migrate.runtime.policy import Outcome
from empty_migrate.testing.offline import network_closed
from empty_migrate.testing.provider_outputs import PROVIDER_OUTPUTS
from tests.in_target.constructs import (
    build_scorer,
    routed_constructs,
    run_scripted,
    short,
)

ANSWERS = [f.name for f in PROVIDER_OUTPUTS if f.expected == Outcome.ANSWERED]


def score_answers(scorer: Scorer | list[Scorer], log_dir: Path) -> dict[str, Any]:
    """What each answered fixture scores, by fixture name (or its error)."""
    log = run_scripted(scorer, {name: [name] for name in ANSWERS}, log_dir)
    results = {}
    for sample in log.samples or []:
        if sample.error:
            results[sample.id] = {"error": short(sample.error.message)}
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
            report[key] = {"not_run": f"{type(error).__name__}: {short(error)}"}
    out.write_text(json.dumps(report, indent=1, sort_keys=True))


if __name__ == "__main__":
    with network_closed():
        main(Path(sys.argv[1]))
