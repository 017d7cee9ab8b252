"""Write the starting registry entry for an eval from what the scan found.

The scan fills in what code can tell (tasks, ``@scorer`` definitions, where
the judge calls and empty checks are, the sample metadata a scorer's metrics
need on routed scores as ``copy_metadata``); a person fills in the rest from
reading the code. Placeholders are ``TODO``, which validation rejects.
"""

from collections.abc import Sequence

from empty_migrate.analysis.metrics import VALUE
from empty_migrate.analysis.scan import EvalScan
from empty_migrate.entries.in_target import entry_path


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
            *_metric_inputs(scan, (where.file, where.text)),
        ]
    return "\n".join(lines) + "\n"


def _metric_inputs(scan: EvalScan, scorer: tuple[str, str]) -> list[str]:
    """What routed scores of a scorer must carry for its metrics, as entry lines.

    The score metadata keys its metrics read that it copies from the sample
    become ``copy_metadata`` (with a ``probe_metadata`` TODO: the tests the
    migration writes give the probe sample each key); keys it computes, and
    the keys of a dict value the metrics read, become comments.
    """
    needs = scan.metrics.metadata_needs(scorer, True, [None])
    copied = [need for need in needs if need.copied_from]
    lines = []
    if copied:
        keys = ", ".join(need.key for need in copied)
        lines += [
            f"    copy_metadata: [{keys}]",
            f"    probe_metadata: {{{', '.join(f'{n.key}: TODO' for n in copied)}}}",
        ]
        lines += [f"    # {need.read}; {need.copied_from}" for need in copied]
        lines.append(
            "    # (if a metric should leave routed scores out, as it leaves out "
            "the eval's own non-answers, list the key under absent_metadata instead)"
        )
    for need in needs:
        if not need.copied_from:
            where = f"; {need.sources[0]}" if need.sources else ""
            lines.append(
                f"    # {need.read}{where}: give it in verdict_metadata, or list "
                "it under absent_metadata with why routed scores may lack it"
            )
    reads = scan.metrics.reads_for(scorer, True, [None])
    values = sorted({r.key for r in reads if r.field == VALUE and r.key})
    if values:
        lines.append(
            f"    # the metrics read keys {values} of a dict value: a dict "
            "no_answer_verdict or refusal_verdict needs them all"
        )
    return lines


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
