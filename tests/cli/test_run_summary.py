"""How much a migration run says on stderr: a short summary, ``-v``, ``-q``.

``run_summary_verbose.txt`` is what the run printed on stderr before the short
summary became the default, recorded with that code (``--verbose`` prints it
still); the tree is `build`'s, so the recording can be made again from any
version of the tool: ``python -m tests.cli.test_run_summary DIR``.
"""

import sys
from pathlib import Path

import pytest

from empty_migrate.cli.main import main
from tests.demo import DemoTree, choice_entry, choice_task, manual_entry

VERBOSE = Path(__file__).with_name("run_summary_verbose.txt")
ONLY = [
    f"--only={name}" for name in ("install_router", "replace_preset", "wrap_router")
]


def build(root: Path) -> DemoTree:
    """gamma, scored by choice(), and delta, which its entry leaves to a person."""
    tree = DemoTree.create(root)
    tree.add_eval("gamma", {"gamma.py": choice_task("gamma")}, choice_entry("gamma"))
    tree.write({"src/inspect_evals/delta/delta.py": "X = 1\n"})
    reason = "the judge runs inside a multi-turn solver"
    tree.register(
        "delta",
        manual_entry(reason, "scored from the sandbox only (delta/delta.py::X)"),
    )
    return tree


def arguments(tree: DemoTree, *args: str) -> list[str]:
    places = ["--repo", str(tree.repo), "--registry", str(tree.registry)]
    return [*args, *places, *ONLY, "--today", "2026-12-01"]


@pytest.fixture
def tree(tmp_path):
    return build(tmp_path)


def stderr_of(capsys, tree, *args, code=0):
    assert main(arguments(tree, *args)) == code
    return capsys.readouterr().err


def test_verbose_prints_what_the_run_printed_before(tree, capsys):
    err = stderr_of(capsys, tree, "--all", "--dry-run", "--verbose")
    assert err == VERBOSE.read_text(encoding="utf-8")


def test_the_default_is_a_short_summary_in_plain_words(tree, capsys):
    err = stderr_of(capsys, tree, "--all", "--dry-run")
    assert err.splitlines() == [
        "1 of 2 evals would be migrated (2 files would change); 1 left as they are",
        "left as their registry entries say: left to a person in 1 (delta)",
        "next: run the same command without --dry-run in a checkout (--repo PATH) "
        "to write the changes, or add --branch-per-eval for a branch and a PR "
        "text per eval",
        "-v prints each eval's changes to its scores and why each was left; "
        "--format json gives them as data",
    ]


@pytest.mark.slow  # four runs, one of them writing
def test_the_summary_says_what_comes_next_in_each_mode(tree, capsys):
    err = stderr_of(capsys, tree, "--all", "--check", code=1)
    assert "1 of 2 evals still need migrating (2 files would change)" in err
    assert "next: run the same command without --check to migrate them" in err
    err = stderr_of(capsys, tree, "--all")
    assert err.startswith("1 of 2 evals migrated (2 files changed); 1 left as")
    assert "next: read the changes (git diff), run the target's tests" in err
    err = stderr_of(capsys, tree, "--all", "--check")
    assert err.splitlines()[0] == (
        "all 2 evals are migrated or left as they are; 1 already migrated; "
        "1 left as they are"
    )
    assert "next:" not in err


def test_a_skip_the_user_must_act_on_is_said_with_its_reason(tree, capsys):
    path = tree.repo / "src/inspect_evals/gamma/gamma.py"
    path.write_text(path.read_text() + "\ndef broken(:\n")
    err = stderr_of(capsys, tree, "--all", "--dry-run")
    [line] = [line for line in err.splitlines() if line.startswith("gamma:")]
    assert line.startswith("gamma: skipped: gamma/gamma.py does not parse")
    assert "0 of 2 evals would be migrated (0 files would change); 2 left" in err
    assert "next:" not in err


def test_quiet_says_nothing_on_success(tree, capsys):
    assert main(arguments(tree, "--all", "--dry-run", "-q")) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert "+++ b/src/inspect_evals/gamma/gamma.py" in out


def test_quiet_still_names_a_failed_eval(tree, capsys, monkeypatch):
    from empty_migrate.codemods.wrap_router.rewrite import WrapRouter

    def crash(self, target):
        raise ValueError("injected")

    monkeypatch.setattr(WrapRouter, "files", crash)
    err = stderr_of(capsys, tree, "--all", "--dry-run", "--quiet", code=3)
    assert err == "gamma: failed: tool error: ValueError: injected\n"


def test_quiet_and_verbose_do_not_go_together(tree, capsys):
    with pytest.raises(SystemExit) as stop:
        main(arguments(tree, "--all", "--dry-run", "-q", "-v"))
    assert stop.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


if __name__ == "__main__":  # record VERBOSE from the tool on sys.path
    built = build(Path(sys.argv[1]))
    code = main(arguments(built, "--all", "--dry-run"))
    raise SystemExit(code)
