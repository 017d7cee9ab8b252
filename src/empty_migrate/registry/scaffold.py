"""Write the starting registry entry for an eval from what the scan found.

The scan fills in what code can tell (tasks, ``@scorer`` definitions, where
the judge calls and empty checks are); a person fills in the rest from reading
the code. Placeholders are ``TODO``, which validation rejects.
"""

from collections.abc import Sequence

from empty_migrate.entries.in_target import entry_path
from empty_migrate.source.scan import EvalScan


def scaffold(scan: EvalScan) -> str:
    """A YAML registry entry for one scanned eval, with TODO for judgement calls."""
    lines = [
        f"# {scan.name}: registry entry; save it as {entry_path(scan.name)}",
        *_found(scan),
    ]
    lines += [
        "category: TODO  # qa | model_graded | safety | agentic",
        "polarity: TODO  # refusal_good | refusal_bad | per_sample | neutral",
        "output: state.output  # or last_assistant, store:KEY, metadata:KEY, none",
        "judge: TODO  # scorer | solver | none | several",
        "today: TODO  # what an empty answer scores today, citing path::symbol",
        "codemods: TODO  # list of codemods, or none / manual with codemods_reason",
        "tasks:" if scan.tasks else "tasks: {}",
        *[f"  {task}: {{}}" for task in scan.tasks],
        "scorers:" if scan.scorers else "scorers: []",
    ]
    for where in scan.scorers.values():
        lines += [
            f"  - name: {where.text}",
            f"    file: {where.file}",
            "    construct: factory",
        ]
    return "\n".join(lines) + "\n"


def _found(scan: EvalScan) -> list[str]:
    notes: list[tuple[str, Sequence[object]]] = [
        ("builtin scorers", sorted(scan.builtin_scorers)),
        ("judge calls", scan.judge_calls),
        ("preset_score_on_no_response", scan.preset_calls),
        ("empty checks", scan.empty_checks),
        ("dead checks", scan.dead_checks),
        ("not scanned", [finding.text for finding in scan.not_utf8]),
    ]
    return [
        f"# scan: {label}: {', '.join(map(str, items))}"
        for label, items in notes
        if items
    ]
