"""``empty-migrate registry``: list, show, validate and scan (parse, print, exit)."""

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from empty_migrate.analysis.flow import FlowCheck
from empty_migrate.analysis.metrics import METADATA, FieldRead
from empty_migrate.analysis.scan import EvalScan, scan_eval, scan_repo
from empty_migrate.cli.common import (
    check_or_report,
    note,
    open_registry,
    unknown_eval_message,
    usage_error,
)
from empty_migrate.cli.exit_codes import ExitCode
from empty_migrate.entries.schema import EvalEntry, ScorerEntry, as_data, resolve
from empty_migrate.registry.drift import Drift, drift, recorded, unresolved_references
from empty_migrate.registry.loader import Registry, unknown_name_message
from empty_migrate.target.corpus import (
    Target,
    resolve_target,
)
from empty_migrate.target.layout import enclosing_checkout, eval_package_names

_NEEDS_A_TREE = {"validate", "scan", "scaffold"}
"""The commands that read the target's code, not only its registry entries."""


def run_registry(args: argparse.Namespace) -> int:
    """Run one registry command; the registry is validated before anything else."""
    handlers = {
        "list": _list,
        "show": _show,
        "validate": _validate,
        "scan": _scan,
        "scaffold": _scaffold,
    }
    try:
        target = _target(args)
        root = target.path if target else None
        registry = open_registry(args.registry, root)
        if not check_or_report(registry):
            return ExitCode.USAGE
        return handlers[args.action](registry, args, target)
    except KeyError as error:  # a name not held; its message names close matches
        note(error.args[0])
        return ExitCode.USAGE


def _target(args: argparse.Namespace) -> Target | None:
    """The checkout the command reads: ``--repo``, else the one around us.

    Outside a checkout, the commands that read code use the pinned release;
    ``list`` and ``show`` read this package's registry alone (None).
    """
    if args.repo is None and args.action not in _NEEDS_A_TREE:
        checkout = enclosing_checkout(Path.cwd())
        return Target(checkout, str(checkout)) if checkout else None
    target = resolve_target(args.repo)
    if target.notice:
        note(target.notice)
    return target


def _list(registry: Registry, args: argparse.Namespace, _: Target | None) -> int:
    rows = [_summary_row(name, entry) for name, entry in registry.evals.items()]
    if args.format == "json":
        print(json.dumps(rows, indent=2))
        return ExitCode.OK
    table = [("eval", "category", "polarity", "codemods")]
    for row in rows:
        polarity = row["polarity"] + (f":{row['key']}" if row["key"] else "")
        codemods = row["codemods"]
        text = ", ".join(codemods) if isinstance(codemods, list) else codemods
        if row["unrouted_tasks"]:
            text += f" (unrouted: {', '.join(row['unrouted_tasks'])})"
        table.append((row["eval"], row["category"], polarity, text))
    widths = [max(len(line[i]) for line in table) + 2 for i in range(3)]
    for line in table:
        cells = [cell.ljust(width) for cell, width in zip(line, widths, strict=False)]
        print("".join(cells) + line[3])
    print(f"{len(rows)} evals")
    return ExitCode.OK


def _summary_row(name: str, entry: EvalEntry) -> dict[str, Any]:
    return {
        "eval": name,
        "category": entry.category,
        "polarity": entry.polarity,
        "key": entry.polarity_key,
        "codemods": entry.codemods,
        "reason": entry.codemods_reason,
        "unrouted_tasks": entry.unrouted_tasks(),
    }


def _show(registry: Registry, args: argparse.Namespace, target: Target | None) -> int:
    root = target.path if target else None
    if args.eval not in registry.files:
        return usage_error(unknown_eval_message(registry, args.eval, root=root))
    entry = registry.get(args.eval)
    resolved = _resolved_table(entry)
    source = registry.files[args.eval]
    if args.format == "json":
        data = {"eval": args.eval, "entry": str(source), **as_data(entry)}
        print(json.dumps({**data, "resolved": resolved}, indent=2))
        return ExitCode.OK
    shown = source.relative_to(root) if root and source.is_relative_to(root) else source
    print(f"{args.eval}  ({shown})")
    for key in (
        "category",
        "polarity",
        "polarity_key",
        "refusal_verdict",
        "no_answer_verdict",
        "output",
    ):
        if getattr(entry, key) is not None:
            print(f"  {key}: {getattr(entry, key)}")
    print(f"  judge: {entry.judge}\n  today: {entry.today}")
    codemods = entry.codemods
    print(
        f"  codemods: {codemods if isinstance(codemods, str) else ', '.join(codemods)}"
    )
    if entry.codemods_reason:
        print(f"  codemods_reason: {entry.codemods_reason}")
    for override in entry.overrides or []:
        print(f"  override: {override.outcome} -> {override.route} ({override.reason})")
    print("  resolved, per task and scorer:")
    for row in resolved:
        print("    " + "  ".join(f"{k}={v}" for k, v in row.items()))
    return ExitCode.OK


def _resolved_table(entry: EvalEntry) -> list[dict[str, Any]]:
    rows = []
    for task in list(entry.tasks) or ["(eval)"]:
        scorers = [s for s in entry.scorers if not s.tasks or task in s.tasks]
        chosen: Sequence[ScorerEntry | None] = scorers or [None]
        for scorer in chosen:
            settings = resolve(entry, task, scorer)
            row: dict[str, Any] = {"task": task}
            row["scorer"] = scorer.name if scorer else "-"
            row |= {k: v for k, v in asdict(settings).items() if k != "overrides"}
            row["overrides"] = [f"{o.outcome}->{o.route}" for o in settings.overrides]
            rows.append(row)
    return rows


def _validate(
    registry: Registry, args: argparse.Namespace, target: Target | None
) -> int:
    assert target is not None  # a command of _NEEDS_A_TREE
    problems = list(
        unresolved_references(registry, scan_repo(target.path), target.path)
    )
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"registry invalid: {len(problems)} problem(s)", file=sys.stderr)
        return ExitCode.USAGE
    print(
        f"registry valid: {len(registry.evals)} evals; references resolve in "
        f"{target.spec}"
    )
    return ExitCode.OK


def _scan(registry: Registry, args: argparse.Namespace, target: Target | None) -> int:
    assert target is not None  # a command of _NEEDS_A_TREE
    scans = scan_repo(target.path)
    found = drift(registry, scans, target.path)
    if args.format == "json":
        print(json.dumps(_scan_json(registry, scans, found), indent=2))
    else:
        _print_scan(registry, scans, found, target.spec)
    return ExitCode.WORK_REMAINS if found else ExitCode.OK


def _scaffold(
    registry: Registry, args: argparse.Namespace, target: Target | None
) -> int:
    assert target is not None  # a command of _NEEDS_A_TREE
    # imported here: a migration, which reads this module too, never scaffolds
    from empty_migrate.registry.scaffold import scaffold

    names = eval_package_names(target.path)
    if args.eval not in names:
        raise KeyError(unknown_name_message("eval package", args.eval, names))
    print(scaffold(scan_eval(target.path, args.eval)), end="")
    return ExitCode.OK


def _print_scan(
    registry: Registry, scans: dict[str, EvalScan], found: list[Drift], spec: str
) -> None:
    totals = {
        "evals": len(scans),
        "tasks": sum(len(s.tasks) for s in scans.values()),
        "scorers": sum(len(s.scorers) for s in scans.values()),
        "judge calls": sum(len(s.judge_calls) for s in scans.values()),
        "preset calls": sum(len(s.preset_calls) for s in scans.values()),
        "empty checks": sum(len(s.empty_checks) for s in scans.values()),
        "dead checks": sum(len(s.dead_checks) for s in scans.values()),
        "helper checks": sum(len(s.helpers) for s in scans.values()),
        "places not followed": sum(len(s.unfollowed) for s in scans.values()),
        "score metadata keys metrics read": sum(
            len(_metadata_keys(s)) for s in scans.values()
        ),
    }
    print(f"{spec}: " + ", ".join(f"{v} {k}" for k, v in totals.items()))
    for name, scan in scans.items():
        for finding in scan.not_utf8:
            print(f"{name}: not scanned: {finding.text}")
        for line in [*_flow_lines(registry, name, scan), *_metric_lines(scan)]:
            print(f"{name}: {line}")
    for item in found:
        print(f"drift: {item}")
    print(f"{len(found)} drift(s)" if found else "no drift: the registry matches")


def _flow_lines(registry: Registry, name: str, scan: EvalScan) -> list[str]:
    """What following the model's output found in one eval, one line each."""
    lines = []
    for check in scan.helpers:
        known = "recorded" if _is_recorded(registry, name, check) else "not recorded"
        lines.append(f"helper ({known}): {check}")
    lines += [f"found by following the output: {c}" for c in scan.missed_by_name]
    return lines + [f"not followed: {place}" for place in scan.unfollowed]


def _metadata_keys(scan: EvalScan) -> dict[str | None, list[FieldRead]]:
    """The score metadata keys the eval's metrics and reducers read, with each read."""
    found: dict[str | None, list[FieldRead]] = {}
    for reader in scan.metrics.readers.values():
        for read in reader.reads:
            if read.field == METADATA:
                found.setdefault(read.key, []).append(read)
    return {
        key: sorted(reads, key=lambda r: (r.file, r.line, r.reader))
        for key, reads in sorted(found.items(), key=lambda item: str(item[0]))
    }


def _metric_lines(scan: EvalScan) -> list[str]:
    """Score metadata the eval's metrics read (one line a key), unattached readers."""
    lines = []
    for key, reads in _metadata_keys(scan).items():
        readers = ", ".join(dict.fromkeys(read.reader for read in reads))
        first = reads[0]
        lines.append(
            f"metric reads score.metadata[{key!r}]: {readers} "
            f"({first.file}:{first.line})"
        )
    return lines + [
        f"metric not attached: {reader.file}:{reader.line}: {reader.name} "
        "(no @scorer(metrics=...) or Task(...) the scan sees lists it)"
        for reader in scan.metrics.unattached()
        if any(read.field == METADATA for read in reader.reads)
    ]


def _is_recorded(registry: Registry, name: str, check: FlowCheck) -> bool:
    entry = registry.evals.get(name)
    return bool(entry and recorded(entry, check))


def _helper_json(registry: Registry, name: str, check: FlowCheck) -> dict[str, object]:
    return {
        "file": check.file,
        "line": check.line,
        "function": check.function,
        "check": check.check,
        "kind": check.kind,
        "route": " -> ".join(check.route),
        "recorded": _is_recorded(registry, name, check),
    }


def _scan_json(
    registry: Registry, scans: dict[str, EvalScan], found: list[Drift]
) -> dict[str, object]:
    def findings(items: Iterable[object]) -> list[str]:
        return [str(item) for item in items]

    return {
        "evals": {
            name: {
                "tasks": findings(
                    f"{w.file}:{w.line}: {t}" for t, w in s.tasks.items()
                ),
                "scorers": findings(s.scorers.values()),
                "builtin_scorers": sorted(s.builtin_scorers),
                "judge_calls": findings(s.judge_calls),
                "preset_calls": findings(s.preset_calls),
                "empty_checks": findings(s.empty_checks),
                "dead_checks": findings(s.dead_checks),
                "unparsable": findings([*s.not_utf8, *s.unparsable]),
                "helpers": [_helper_json(registry, name, c) for c in s.helpers],
                "found_by_following_the_output": findings(s.missed_by_name),
                "not_followed": findings(s.unfollowed),
                "metric_reads": findings(
                    read
                    for reader in s.metrics.readers.values()
                    for read in reader.reads
                ),
                "metrics_not_attached": findings(
                    f"{r.file}:{r.line}: {r.name}" for r in s.metrics.unattached()
                ),
            }
            for name, s in scans.items()
        },
        "drift": [str(item) for item in found],
    }
