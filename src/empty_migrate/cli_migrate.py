"""``empty-migrate --eval X [--dry-run | --check]``: parse, print, set exit codes."""

import argparse
import datetime
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from empty_migrate.cli_registry import load_or_report
from empty_migrate.codemods import CODEMODS
from empty_migrate.corpus import CorpusError, resolve_target
from empty_migrate.migrate import (
    RunResult,
    migrate,
    select_codemods,
    unselected_sharers,
    write_files,
)
from empty_migrate.registry.loader import EVALS_DIR, Registry

EXIT_OK = 0
EXIT_WORK_REMAINS = 1
EXIT_USAGE = 2
EXIT_TOOL_ERROR = 3

_COLORS = {"+": "\033[32m", "-": "\033[31m", "@": "\033[36m", "d": "\033[1m"}
_RESET = "\033[0m"


def add_migrate_arguments(parser: argparse.ArgumentParser) -> None:
    """The top-level migration options."""
    group = parser.add_argument_group("migration")
    group.add_argument("--eval", action="append", help="eval to migrate (repeat)")
    group.add_argument("--all", action="store_true", help="migrate every eval")
    mode = group.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", action="store_true", help="print the diff only")
    mode.add_argument(
        "--check", action="store_true", help="exit 1 if any eval still needs migrating"
    )
    names = list(CODEMODS)
    group.add_argument("--only", action="append", choices=names, metavar="CODEMOD")
    group.add_argument("--skip", action="append", choices=names, metavar="CODEMOD")
    group.add_argument(
        "--list-codemods", action="store_true", help="print name and description"
    )
    group.add_argument("--format", choices=["text", "json"], default="text")
    group.add_argument("--repo", help="PATH, or pypi:inspect-evals==VERSION")
    group.add_argument(
        "--registry", type=Path, default=EVALS_DIR, help=argparse.SUPPRESS
    )
    group.add_argument(
        "--today",
        type=datetime.date.fromisoformat,
        default=None,
        help="date for changelog entries (YYYY-MM-DD; default: today)",
    )


def run_migrate(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Run a migration, a dry run or a check, from parsed arguments."""
    if args.list_codemods:
        return _list_codemods()
    if not args.eval and not args.all:
        parser.print_usage(sys.stderr)
        print("empty-migrate: name --eval EVAL (repeatable) or --all", file=sys.stderr)
        return EXIT_USAGE
    registry = load_or_report(args.registry)
    if registry is None:
        return EXIT_USAGE
    try:
        evals = _selected(registry, args)
        target = resolve_target(args.repo)
    except (CorpusError, KeyError) as error:
        print(f"empty-migrate: {error.args[0]}", file=sys.stderr)
        return EXIT_USAGE
    if target.notice:
        print(f"empty-migrate: {target.notice}", file=sys.stderr)
    today = (args.today or datetime.date.today()).isoformat()
    codemods = select_codemods(args.only, args.skip)
    run = migrate(registry, target.path, evals, codemods, today, _progress(evals))
    code = _report(run, args, target.path)
    for path, others in unselected_sharers(registry, run).items():
        print(
            f"empty-migrate: note: {path} also scores {', '.join(others)}, not in "
            "this run: migrate them together so each gets its version bump",
            file=sys.stderr,
        )
    return code


def _list_codemods() -> int:
    width = max(len(name) for name in CODEMODS) + 2
    for name, codemod in CODEMODS.items():
        safety = "unsafe" if codemod.changes_scores else "safe"
        print(f"{name:<{width}}{safety:<8}{codemod.description}")
    return EXIT_OK


def _selected(registry: Registry, args: argparse.Namespace) -> list[str]:
    if args.all:
        return sorted(registry.evals)
    for name in args.eval:
        registry.get(name)  # raises KeyError with a did-you-mean
    return list(dict.fromkeys(args.eval))


def _progress(evals: list[str]) -> Any:
    if len(evals) < 2 or not sys.stderr.isatty():
        return None

    def show(index: int, total: int, name: str) -> None:
        done = int(30 * index / total)
        bar = "#" * done + "." * (30 - done)
        end = "\n" if index == total else ""
        print(f"\r[{bar}] {index}/{total} {name:<30}", end=end, file=sys.stderr)

    return show


def _report(run: RunResult, args: argparse.Namespace, repo: Path) -> int:
    changed = run.changed_files()
    if args.format == "json":
        print(json.dumps(_as_json(run), indent=2))
    elif args.dry_run:
        _print_diff(run, sys.stdout)
    if not args.dry_run and not args.check and changed:
        write_files(repo, changed)
    if args.format == "text":
        _print_summary(run, sys.stderr if args.dry_run else sys.stdout, args)
    if run.count("failed"):
        return EXIT_TOOL_ERROR
    if args.check and changed:
        return EXIT_WORK_REMAINS
    return EXIT_OK


def _print_diff(run: RunResult, stream: TextIO) -> None:
    color = stream.isatty()
    final = run.changed_files()
    seen: set[str] = set()
    for result in run.evals:
        for file in result.files:
            if file.status != "rewritten" or file.path in seen:
                continue
            # the first rewrite of a path holds its original text
            seen.add(file.path)
            diff = replace(file, after=final[file.path]).diff()
            stream.write(_colored(diff) if color else diff)


def _colored(diff: str) -> str:
    lines = []
    for line in diff.splitlines(keepends=True):
        key = "d" if line.startswith(("diff ", "---", "+++", "new file")) else line[:1]
        code = _COLORS.get(key)
        lines.append(f"{code}{line.rstrip(chr(10))}{_RESET}\n" if code else line)
    return "".join(lines)


def _print_summary(run: RunResult, stream: TextIO, args: argparse.Namespace) -> None:
    for result in run.evals:
        rewritten = [f for f in result.files if f.status == "rewritten"]
        if result.status == "rewritten":
            codemods = sorted({c for f in rewritten for c in f.codemods})
            line = f"{len(rewritten)} file(s): {', '.join(codemods)}"
        elif result.status in ("skipped", "failed"):
            line = result.reason or ""
        else:
            line = "already migrated"
        print(f"{result.eval}: {result.status}: {line}", file=stream)
        if result.status == "rewritten":
            for change in result.scoring:
                print(f"  {change}", file=stream)
            for test in result.tests_updated:
                print(f"  updated test {test}", file=stream)
    verb = "would change" if args.dry_run or args.check else "changed"
    counts = ", ".join(
        f"{run.count(s)} {s}" for s in ("rewritten", "unchanged", "skipped", "failed")
    )
    files = len(run.changed_files())
    print(f"{len(run.evals)} evals: {counts}; {verb} {files} file(s)", file=stream)


def _as_json(run: RunResult) -> dict[str, Any]:
    return {
        "evals": [
            {
                "eval": result.eval,
                "status": result.status,
                "reason": result.reason,
                "scoring": result.scoring,
                "tests_updated": result.tests_updated,
                "files": [
                    {
                        "path": f.path,
                        "status": f.status,
                        "codemods": list(f.codemods),
                        "reason": f.reason,
                    }
                    for f in result.files
                ],
            }
            for result in run.evals
        ],
        "summary": {
            s: run.count(s) for s in ("rewritten", "unchanged", "skipped", "failed")
        },
    }
