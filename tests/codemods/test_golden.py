"""One test per golden case: the codemod's output is the case's .after text.

Invariants checked for every case: the output equals the expectation; the
expectation parses; a second run changes nothing; a case without an .after
comes out byte-identical. ``pytest --update-golden`` is the only way the
expectations change; it lists what it wrote.
"""

import libcst as cst
import pytest

from empty_migrate.codemods import eval_target, implementation, names
from empty_migrate.codemods.install_router.rewrite import NOTE
from empty_migrate.pipeline.formatter import Formatter
from empty_migrate.pipeline.runner import run_file
from empty_migrate.registry.loader import load_entry
from empty_migrate.source.scan import scan_eval
from tests.codemods.golden import (
    EVAL,
    GOLDEN,
    GoldenCase,
    build_repo,
    discover,
    orphans,
    write_after,
)

CASES = discover()


def run_codemod(case: GoldenCase, repo) -> dict[str, str]:
    entry, problems = load_entry(case.registry)
    assert not problems, problems
    codemod = implementation(case.codemod)
    # follow-up codemods act on what the code codemods changed: in a golden
    # case, that is every other codemod the case's registry entry lists
    listed = entry.codemods if isinstance(entry.codemods, list) else []
    changed_by = tuple(n for n in listed if n != codemod.name)
    target = eval_target(
        EVAL, entry, scan_eval(repo, EVAL), repo, "2026-11-29", changed_by
    )
    outputs = {}
    for path in codemod.files(target):
        text = (repo / path).read_text() if (repo / path).exists() else ""
        result = run_file(text, path, [codemod], target, Formatter(repo))
        assert result.status in ("rewritten", "unchanged"), result.reason
        outputs[path] = result.after
    return outputs


def test_every_codemod_has_golden_cases():
    assert {case.codemod for case in CASES} == set(names())


def test_no_orphan_golden_files():
    assert orphans() == []


def test_no_golden_file_copies_the_generated_router():
    first_line = NOTE.splitlines()[0]
    copies = [p for p in GOLDEN.rglob("*.py") if first_line in p.read_text()]
    assert copies == [], "write golden.GENERATED instead"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_golden(case, tmp_path, request):
    repo = build_repo(case, tmp_path)
    outputs = run_codemod(case, repo)

    if request.config.getoption("--update-golden"):
        for path in write_after(case, outputs):
            print(f"updated {path}")
        return

    for path, text in outputs.items():
        assert text == case.expected(path), _diff(case.expected(path), text, path)
    unexpected = set(case.after) - set(outputs)
    assert not unexpected, f"expected changes the codemod did not make: {unexpected}"
    for path, text in case.after.items():
        if path.endswith(".py"):
            cst.parse_module(text)

    for path, text in outputs.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)
    again = run_codemod(case, repo)
    for path, text in again.items():
        assert text == outputs[path], f"second run changed {path}"


def _diff(expected: str, actual: str, path: str) -> str:
    import difflib

    return "".join(
        difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            f"expected/{path}",
            f"actual/{path}",
        )
    )
