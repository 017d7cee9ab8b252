"""Measure how many inspect_evals source files libcst and fissix can parse.

This benchmark backs the choice of libcst over Bowler (whose parser is fissix,
a lib2to3 fork) for empty-migrate's codemods. It walks every ``*.py`` file
under ``src/inspect_evals/`` (recursively) of an extracted inspect_evals tree,
parses each one with ``libcst.parse_module`` and with fissix the way Bowler
does, and prints the total file count, the failures per parser, and each file
fissix rejects with the first line of its error.

Bowler 0.9.0 (``Query(python_version=3).execute``) builds a
``RefactoringTool`` with ``print_function=True``: its grammar is
``pygram.python_grammar`` without the ``print`` keyword, which equals
``fissix.pygram.python_grammar_no_print_statement``. It then calls
``Driver(grammar, convert=pytree.convert).parse_string(text)`` on the file
text with a final newline appended. That grammar keeps ``exec`` as a keyword,
so ``sandbox().exec(...)`` fails under it; the
``python_grammar_no_print_and_exec_statement`` variant (not reachable through
Bowler's ``Query``) is measured as well. Both parsers get the same text.

Usage:
    pip download --no-deps --no-binary :all: inspect-evals==0.26.0 -d CORPUS
    tar xzf CORPUS/inspect_evals-0.26.0.tar.gz -C CORPUS
    python bench/parser_coverage.py CORPUS/inspect_evals-0.26.0

Requires ``libcst`` and ``fissix`` (``pip install fissix``; a measurement-only
dependency, not a dependency of empty-migrate).
"""

from __future__ import annotations

import argparse
import tokenize
from collections.abc import Callable
from pathlib import Path

import libcst
from fissix import pygram, pytree
from fissix.pgen2 import driver as fissix_driver

Parser = Callable[[str], object]


def fissix_parser(grammar: object) -> Parser:
    """Return a parse function using a fissix Driver as Bowler builds it."""
    drv = fissix_driver.Driver(grammar, convert=pytree.convert)
    return drv.parse_string


def parsers() -> dict[str, Parser]:
    """Return the parsers to measure, keyed by a display name."""
    found: dict[str, Parser] = {
        "libcst": libcst.parse_module,
        "fissix (no print stmt; Bowler)": fissix_parser(
            pygram.python_grammar_no_print_statement
        ),
    }
    no_exec = getattr(pygram, "python_grammar_no_print_and_exec_statement", None)
    if no_exec is not None:
        found["fissix (no print/exec stmt)"] = fissix_parser(no_exec)
    return found


def source_files(root: Path) -> list[Path]:
    """Return every ``*.py`` file under ``root/src/inspect_evals``, sorted."""
    package = root / "src" / "inspect_evals"
    if not package.is_dir():
        raise SystemExit(f"not an inspect_evals tree: {package} is missing")
    return sorted(package.rglob("*.py"))


def read_source(path: Path) -> str:
    """Read a file as Bowler's ``refactor_file`` does.

    The PEP 263 encoding is honoured, newlines are kept as written
    (``newline=""``) and a final newline is appended when missing.
    """
    with path.open("rb") as raw:
        encoding = tokenize.detect_encoding(raw.readline)[0]
    with path.open(encoding=encoding, newline="") as handle:
        text = handle.read()
    return text if text.endswith("\n") else text + "\n"


def first_error_line(parse: Parser, text: str) -> str | None:
    """Parse ``text``; return None on success or the error's first line."""
    try:
        parse(text)
    except Exception as exc:  # any parser error counts as a failure
        lines = str(exc).strip().splitlines() or [""]
        return f"{type(exc).__name__}: {lines[0]}"
    return None


def measure(root: Path) -> tuple[int, dict[str, dict[str, str]]]:
    """Return the file count and, per parser, failing relative path -> error."""
    files = source_files(root)
    texts = {path: read_source(path) for path in files}
    failures: dict[str, dict[str, str]] = {}
    for name, parse in parsers().items():
        failures[name] = {}
        for path, text in texts.items():
            error = first_error_line(parse, text)
            if error is not None:
                failures[name][path.relative_to(root).as_posix()] = error
    return len(files), failures


def report(total: int, failures: dict[str, dict[str, str]]) -> None:
    """Print the totals and the files each fissix grammar fails on."""
    print(f"total files under src/inspect_evals/: {total}")
    for name, failed in failures.items():
        print(f"{name}: {len(failed)} of {total} fail")
    for name, failed in failures.items():
        if name.startswith("fissix") and failed:
            print(f"\nfiles {name} fails on:")
            for rel, error in failed.items():
                print(f"  {rel}: {error}")


def main(argv: list[str] | None = None) -> int:
    """Run the measurement on the tree given on the command line."""
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("root", type=Path, help="extracted inspect_evals sdist root")
    args = cli.parse_args(argv)
    report(*measure(args.root))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
