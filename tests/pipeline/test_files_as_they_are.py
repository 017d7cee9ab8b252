"""Files as they are: not UTF-8 skips one eval; CRLF, mixed ends and a BOM survive.

Each case is found by running the command line on a small tree. A rewritten
file must differ from its original by exactly the lines the migration of its
LF, BOM-less twin changes, every other line keeping its bytes.
"""

import difflib
import re
import subprocess

import pytest

from empty_migrate.cli.main import main
from tests.demo import EVAL, SCORER_PATH, DemoTree, choice_entry, choice_task, git

EVALS = ["alpha", "beta", "gamma"]  # --all runs them in this order
BOM = "\ufeff".encode()


@pytest.fixture(autouse=True)
def own_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))


def migrate(tree: DemoTree, *args: str) -> int:
    places = ["--repo", str(tree.repo), "--registry", str(tree.registry)]
    return main([*places, "--today", "2026-12-01", "-v", *args])


def choice_evals(tree: DemoTree) -> DemoTree:
    for name in EVALS:
        tree.add_eval(name, {f"{name}.py": choice_task(name)}, choice_entry(name))
    return tree


DEMO_TASK = f"""\
from inspect_ai import Task, task

from inspect_evals.{EVAL}.scorer import {EVAL}_scorer


@task
def {EVAL}() -> Task:
    return Task(dataset=[], scorer={EVAL}_scorer())
"""


def demo_eval(tree: DemoTree) -> DemoTree:
    """The demo eval, with its task: wrap_router, the version bump, the changelog."""
    tree.write({f"src/inspect_evals/{EVAL}/{EVAL}.py": DEMO_TASK})
    return tree.add_demo_eval()


# a file that is not UTF-8


@pytest.mark.parametrize("coding_line", [True, False], ids=["coding", "no-coding"])
def test_a_latin_1_file_skips_its_eval_with_the_reason_and_the_others_migrate(
    demo, capsys, coding_line
):
    tree = choice_evals(demo)
    path = tree.repo / "src/inspect_evals/beta/beta.py"
    text = choice_task("beta").replace("choice()", "choice()  # café")
    data = (("# -*- coding: latin-1 -*-\n" if coding_line else "") + text).encode(
        "latin-1"
    )
    path.write_bytes(data)

    assert migrate(tree, "--all") == 0

    assert path.read_bytes() == data
    err = capsys.readouterr().err
    declared = "; it declares latin-1" if coding_line else ""
    line = 8 if coding_line else 7
    offset = data.index(b"\xe9")
    assert (
        f"beta: skipped: src/inspect_evals/beta/beta.py is not UTF-8 (byte 0xe9 at "
        f"offset {offset}, line {line}{declared}): convert it to UTF-8 to migrate "
        "this eval\n"
    ) in err
    assert "Traceback" not in err
    for name in ("alpha", "gamma"):
        assert (
            "route_empty_responses"
            in (tree.repo / f"src/inspect_evals/{name}/{name}.py").read_text()
        )
    assert "3 evals: 2 rewritten, 0 unchanged, 1 skipped, 0 failed" in err


def test_a_latin_1_file_outside_the_package_skips_the_eval_that_needs_it(demo, capsys):
    tree = demo_eval(choice_evals(demo))
    readme = tree.repo / f"src/inspect_evals/{EVAL}/README.md"
    data = readme.read_text().replace("Fix a parser", "Fix a café").encode("latin-1")
    readme.write_bytes(data)

    assert migrate(tree, "--all", "--dry-run") == 0

    err = capsys.readouterr().err
    assert (
        f"{EVAL}: skipped: src/inspect_evals/{EVAL}/README.md is not UTF-8 (byte 0xe9"
    ) in err
    assert "Traceback" not in err
    assert "4 evals: 3 rewritten, 0 unchanged, 1 skipped, 0 failed" in err


# line ends and a BOM


def split(data: bytes) -> list[bytes]:
    """Lines with their ends, as git counts them."""
    return re.findall(rb"[^\n]*\n|[^\n]+", data)


def bare(lines: list[bytes]) -> list[bytes]:
    return [line.rstrip(b"\r\n") for line in lines]


def changed_lines(before: list[bytes], after: list[bytes]) -> list[tuple]:
    """Each change (its place and the lines it removes and adds), ends ignored."""
    matcher = difflib.SequenceMatcher(None, bare(before), bare(after), autojunk=False)
    return [
        (i1, i2, bare(before[i1:i2]), bare(after[j1:j2]))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def assert_changed_as_its_twin(
    twin_before: bytes, twin_after: bytes, before: bytes, after: bytes, end: bytes
) -> None:
    """`after` changes `before` exactly where the twin's migration changed it.

    Every unchanged line keeps its bytes, line end included; every new or
    changed line ends in `end`.
    """
    old, new = split(before), split(after)
    changes = changed_lines(old, new)
    assert changes, "the migration changed nothing"
    assert changes == changed_lines(split(twin_before), split(twin_after))
    matcher = difflib.SequenceMatcher(None, bare(old), bare(new), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            assert old[i1:i2] == new[j1:j2]
        else:
            assert all(line.endswith(end) for line in new[j1:j2]), new[j1:j2]


FORMS = {
    "crlf": (lambda text: text.replace(b"\n", b"\r\n"), b"\r\n"),
    # lines 1 and 3 keep LF: CRLF is the most common end
    "mixed": (
        lambda text: b"".join(
            line if index in (0, 2) else line.replace(b"\n", b"\r\n")
            for index, line in enumerate(split(text))
        ),
        b"\r\n",
    ),
    "bom": (lambda text: BOM + text, b"\n"),
    "bom-crlf": (lambda text: BOM + text.replace(b"\n", b"\r\n"), b"\r\n"),
}
"""How a file is turned from LF into each form, and the end new lines take."""


def twin_trees(tmp_path) -> tuple[DemoTree, DemoTree]:
    """The demo eval twice: as written, and with its scorer and README changed."""
    return (
        demo_eval(DemoTree.create(tmp_path / "twin")),
        demo_eval(DemoTree.create(tmp_path / "own")),
    )


CHANGED = [SCORER_PATH, f"src/inspect_evals/{EVAL}/README.md"]
"""The demo eval's files the test puts in another form: its scorer and README."""


@pytest.mark.parametrize("form", FORMS)
def test_a_file_keeps_its_line_ends_and_bom_outside_the_changed_lines(tmp_path, form):
    twin, own = twin_trees(tmp_path)
    convert, end = FORMS[form]
    befores = {}
    for path in CHANGED:
        befores[path] = (twin.repo / path).read_bytes()
        (own.repo / path).write_bytes(convert(befores[path]))

    assert migrate(twin, "--all") == 0
    assert migrate(own, "--all") == 0

    for path in CHANGED:
        assert_changed_as_its_twin(
            befores[path],
            (twin.repo / path).read_bytes(),
            convert(befores[path]),
            (own.repo / path).read_bytes(),
            end,
        )
        assert (own.repo / path).read_bytes().startswith(BOM) == form.startswith("bom")
    for path in twin.repo.rglob("*"):  # every other file, new ones included
        relative = path.relative_to(twin.repo).as_posix()
        if path.is_file() and relative not in CHANGED:
            assert (own.repo / relative).read_bytes() == path.read_bytes(), relative


def test_a_crlf_file_is_already_migrated_once_migrated(tmp_path, capsys):
    _, own = twin_trees(tmp_path)
    path = own.repo / SCORER_PATH
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    assert migrate(own, "--all") == 0
    migrated = path.read_bytes()
    capsys.readouterr()
    assert migrate(own, "--all", "--check") == 0
    assert path.read_bytes() == migrated
    assert "1 evals: 0 rewritten, 1 unchanged" in capsys.readouterr().err


@pytest.mark.parametrize("form", ["crlf", "bom-crlf"])
def test_the_dry_run_diff_of_a_crlf_file_applies_and_gives_what_a_write_gives(
    tmp_path, capsys, form
):
    _, own = twin_trees(tmp_path)
    convert, _ = FORMS[form]
    for path in CHANGED:
        (own.repo / path).write_bytes(convert((own.repo / path).read_bytes()))
    own.commit()
    written = DemoTree(tmp_path / "written")
    subprocess.run(["cp", "-a", str(own.root), str(written.root)], check=True)

    assert migrate(own, "--all", "--dry-run", "--show-shared") == 0
    patch = tmp_path / "migration.patch"
    patch.write_bytes(capsys.readouterr().out.encode())
    assert b"\r\n" in patch.read_bytes()
    git(own.repo, "apply", str(patch))
    assert migrate(written, "--all") == 0

    for path in written.repo.rglob("*"):
        relative = path.relative_to(written.repo)
        if path.is_file() and relative.parts[0] != ".git":
            assert (own.repo / relative).read_bytes() == path.read_bytes(), relative
