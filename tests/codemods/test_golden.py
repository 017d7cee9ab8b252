"""One test per golden case: the codemod's output is the case's .after text.

Invariants checked for every case: the output equals the expectation; the
expectation parses; a second run changes nothing; a case without an .after
comes out byte-identical; a case with a .skip is skipped, with that reason,
and changes nothing. ``pytest --update-golden`` is the only way the
expectations change (a skip's reason too); it lists what it wrote.
"""

import libcst as cst
import pytest

from empty_migrate.analysis.scan import scan_eval
from empty_migrate.codemods import eval_target, implementation, names
from empty_migrate.codemods.install_router.rewrite import DOCSTRING
from empty_migrate.pipeline.formatter import Formatter
from empty_migrate.pipeline.runner import run_file
from empty_migrate.registry.loader import load_entry
from tests.codemods.golden import (
    GOLDEN,
    GoldenCase,
    build_repo,
    contradictions,
    discover,
    orphans,
    update,
)
from tests.demo import EVAL, TODAY, unified_diff, write_files

CASES = discover()


def run_codemod(case: GoldenCase, repo) -> tuple[dict[str, str], str | None]:
    """The codemod's output for each file it touches, and its skip reason if any.

    The reason is the eval's, as a run reports it (`migrate_eval`).
    """
    entry, problems = load_entry(case.registry)
    assert not problems, problems
    codemod = implementation(case.codemod)
    # follow-up codemods act on what the code codemods changed: in a golden
    # case, that is every other codemod the case's registry entry lists
    listed = entry.codemods if isinstance(entry.codemods, list) else []
    changed_by = tuple(n for n in listed if n != codemod.name)
    target = eval_target(EVAL, entry, scan_eval(repo, EVAL), repo, TODAY, changed_by)
    outputs, skipped = {}, []
    for path in codemod.files(target):
        text = (repo / path).read_text() if (repo / path).exists() else ""
        result = run_file(text, path, [codemod], target, Formatter(repo))
        assert result.status != "failed", f"{path}: {result.reason}"
        if result.status == "skipped":
            skipped.append(f"{path}: {result.reason}")
        outputs[path] = result.after
    return outputs, "; ".join(skipped) or None


def test_every_codemod_has_golden_cases():
    assert {case.codemod for case in CASES} == set(names())


def test_no_orphan_golden_files():
    assert orphans() == []


def test_no_case_expects_both_a_rewrite_and_a_skip():
    assert contradictions() == []


def test_no_golden_file_copies_the_generated_router():
    line = next(line for line in DOCSTRING.splitlines() if "policy:" in line)
    copies = [p for p in GOLDEN.rglob("*.py") if line in p.read_text()]
    assert copies == [], "write golden.GENERATED instead"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_golden(case, tmp_path, request):
    repo = build_repo(case, tmp_path)
    outputs, skip = run_codemod(case, repo)

    if request.config.getoption("--update-golden"):
        for path in update(case, outputs, skip):
            print(f"updated {path}")
        return

    if case.skip is not None or skip is not None:
        assert skip == case.skip, f"expected skip: {case.skip}\nthe codemod: " + (
            f"skipped: {skip}" if skip else "did not skip"
        )
        assert not case.after, "a skipped eval changes nothing"
        return

    for path, text in outputs.items():
        expected = case.expected(path)
        assert text == expected, unified_diff(expected, text, path)
    unexpected = set(case.after) - set(outputs)
    assert not unexpected, f"expected changes the codemod did not make: {unexpected}"
    for path, text in case.after.items():
        if path.endswith(".py"):
            cst.parse_module(text)

    write_files(repo, outputs)
    again, skip = run_codemod(case, repo)
    assert skip is None, f"the second run skipped: {skip}"
    for path, text in again.items():
        assert text == outputs[path], f"second run changed {path}"


# the harness itself, on a golden folder written here


def test_a_skip_file_names_the_reason_and_an_orphan_one_is_found(tmp_path):
    write_files(
        tmp_path / "demo_codemod",
        {
            "registry.yaml": "",
            "single.before.py": "x = 1\n",
            "single.skip": "src/inspect_evals/demo/scorer.py: why\n",
            "lost.skip": "a reason without its case\n",
            "tree/registry.yaml": "",
            "tree/before/a.py": "",
            "tree/expected.skip": "a.py: why not\n",
            "no_before/expected.skip": "a reason without its tree\n",
            "no_before/registry.yaml": "",
        },
    )
    single, tree = discover(tmp_path)

    assert (single.skip, tree.skip) == (
        "src/inspect_evals/demo/scorer.py: why",
        "a.py: why not",
    )
    assert orphans(tmp_path) == [
        tmp_path / "demo_codemod/lost.skip",
        tmp_path / "demo_codemod/no_before/expected.skip",
        tmp_path / "demo_codemod/no_before/registry.yaml",
    ]


def test_a_case_expecting_a_rewrite_and_a_skip_is_a_contradiction(tmp_path):
    write_files(
        tmp_path / "demo_codemod",
        {
            "both.before.py": "x = 1\n",
            "both.after.py": "x = 2\n",
            "both.skip": "why\n",
            "skip_only.before.py": "x = 1\n",
            "skip_only.skip": "why\n",
        },
    )
    assert contradictions(tmp_path) == ["demo_codemod/both"]


def test_an_update_stores_a_skip_and_removes_the_after_files(tmp_path):
    write_files(
        tmp_path / "demo_codemod",
        {
            "case.before.py": "x = 1\n",
            "case.after.py": "x = 2\n",
            "tree/registry.yaml": "",
            "tree/before/a.py": "a = 1\n",
            "tree/after/new/b.py": "b = 1\n",
        },
    )
    single, tree = discover(tmp_path)
    scorer = next(iter(single.before))

    update(single, {scorer: "x = 1\n"}, "src/inspect_evals/demo/scorer.py: why")
    update(tree, {"a.py": "a = 1\n", "new/b.py": ""}, "a.py: why")

    single, tree = discover(tmp_path)
    assert (single.after, single.skip) == ({}, "src/inspect_evals/demo/scorer.py: why")
    assert (tree.after, tree.skip) == ({}, "a.py: why")
    assert not (tmp_path / "demo_codemod/tree/after").exists()

    update(single, {scorer: "x = 3\n"}, None)
    [single, _] = discover(tmp_path)
    assert (single.after, single.skip) == ({scorer: "x = 3\n"}, None)
