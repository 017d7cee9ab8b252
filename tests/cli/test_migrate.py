"""empty-migrate --eval/--all: dry run, write, check, JSON, filters, skips."""

import json
import subprocess

import pytest

from empty_migrate.cli.main import main
from tests.demo import (
    SHARED_HELPER,
    choice_entry,
    choice_task,
    manual_entry,
    shared_entry,
    shared_task,
    versioned,
)

ENTRY = choice_entry("gamma")


@pytest.fixture
def repo(demo):
    """gamma, scored by choice(), and delta, left to a person; under git."""
    demo.add_eval("gamma", {"gamma.py": choice_task("gamma")}, ENTRY)
    demo.write({"src/inspect_evals/delta/delta.py": "X = 1\n"})
    demo.register(
        "delta",
        manual_entry(
            "the judge runs inside a multi-turn solver",
            "scored from the sandbox only (delta/delta.py::X)",
        ),
    )
    subprocess.run(["git", "init", "-q"], cwd=demo.repo, check=True)
    subprocess.run(["git", "add", "-A"], cwd=demo.repo, check=True)
    return demo.repo


@pytest.fixture
def registry(demo, repo):
    return demo.registry


def run(repo, registry, *args):
    return main(
        [
            *args,
            "-v",
            "--repo",
            str(repo),
            "--registry",
            str(registry),
            "--only",
            "install_router",
            "--only",
            "replace_preset",
            "--only",
            "wrap_router",
        ]
    )


def test_dry_run_prints_an_applicable_diff_and_writes_nothing(repo, registry, capsys):
    before = (repo / "src/inspect_evals/gamma/gamma.py").read_text()
    assert run(repo, registry, "--eval", "gamma", "--dry-run") == 0
    out, err = capsys.readouterr()
    assert (
        "+    return Task(dataset=[], "
        'scorer=route_empty_responses(choice(), category="qa"))' in out
    )
    assert "gamma: rewritten: 2 file(s): install_router, wrap_router" in err
    assert (repo / "src/inspect_evals/gamma/gamma.py").read_text() == before
    patch = repo.parent / "gamma.patch"
    patch.write_text(out)
    check = subprocess.run(["git", "apply", "--check", str(patch)], cwd=repo)
    assert check.returncode == 0


def test_write_then_second_run_changes_nothing(repo, registry, capsys):
    assert run(repo, registry, "--eval", "gamma") == 0
    text = (repo / "src/inspect_evals/gamma/gamma.py").read_text()
    assert 'route_empty_responses(choice(), category="qa")' in text
    compile(text, "gamma.py", "exec")
    capsys.readouterr()
    assert run(repo, registry, "--eval", "gamma", "--dry-run") == 0
    out, err = capsys.readouterr()
    assert out == ""
    assert "gamma: unchanged: already migrated" in err


def test_check_exits_1_while_work_remains_then_0(repo, registry):
    assert run(repo, registry, "--eval", "gamma", "--check") == 1
    assert run(repo, registry, "--eval", "gamma") == 0
    assert run(repo, registry, "--eval", "gamma", "--check") == 0


def test_manual_eval_is_skipped_with_its_reason(repo, registry, capsys):
    assert run(repo, registry, "--all", "--dry-run") == 0
    err = capsys.readouterr().err
    assert "delta: skipped: registry says manual: the judge runs inside" in err
    assert "2 evals: 1 rewritten, 0 unchanged, 1 skipped, 0 failed" in err


def test_json_lists_every_eval_and_file(repo, registry, capsys):
    assert run(repo, registry, "--all", "--dry-run", "--format", "json") == 0
    data = json.loads(capsys.readouterr().out)
    by_eval = {e["eval"]: e for e in data["evals"]}
    assert {
        f["path"]: (f["status"], f["codemods"]) for f in by_eval["gamma"]["files"]
    } == {
        "src/inspect_evals/utils/empty_response.py": ("rewritten", ["install_router"]),
        "src/inspect_evals/gamma/gamma.py": ("rewritten", ["wrap_router"]),
    }
    assert by_eval["delta"]["status"] == "skipped"
    assert data["summary"] == {
        "rewritten": 1,
        "unchanged": 0,
        "skipped": 1,
        "failed": 0,
        "not_in_registry": 0,
    }
    assert data["not_in_registry"] == []


def test_unparsable_file_skips_the_eval_and_the_run_goes_on(repo, registry, capsys):
    path = repo / "src/inspect_evals/gamma/gamma.py"
    path.write_text(path.read_text() + "\ndef broken(:\n")
    (registry / "delta.yaml").unlink()
    assert run(repo, registry, "--all") == 0
    assert "def broken(:" in path.read_text()
    assert "gamma: skipped:" in capsys.readouterr().err


def test_registry_mismatch_skips_the_eval(repo, registry, capsys):
    path = repo / "src/inspect_evals/gamma/gamma.py"
    path.write_text(path.read_text().replace("def gamma(", "def gamma_v2("))
    assert run(repo, registry, "--eval", "gamma", "--dry-run") == 0
    err = capsys.readouterr().err
    assert "gamma: skipped: code no longer matches its entry" in err


def test_unknown_eval_suggests_a_name(repo, registry, capsys):
    assert run(repo, registry, "--eval", "gama", "--dry-run") == 2
    assert "did you mean 'gamma'?" in capsys.readouterr().err


def test_unknown_codemod_is_rejected_by_the_parser(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--eval", "gamma", "--only", "wrap_routr"])
    assert exit_.value.code == 2
    assert "invalid choice: 'wrap_routr'" in capsys.readouterr().err


def test_eval_or_all_is_required(capsys):
    assert main(["--dry-run"]) == 2
    assert "name --eval EVAL (repeatable) or --all" in capsys.readouterr().err


def test_list_codemods(capsys):
    assert main(["--list-codemods"]) == 0
    from empty_migrate.codemods import DECLARATIONS

    lines = capsys.readouterr().out.splitlines()
    listed = {line.split()[0]: line.split()[1] for line in lines}
    assert list(listed) == [d.name for d in DECLARATIONS]
    # unsafe: it changes score values, so metrics move
    assert listed == {
        d.name: "unsafe" if d.changes_scores else "safe" for d in DECLARATIONS
    }
    assert (listed["wrap_router"], listed["fix_reason_tag"]) == ("unsafe", "safe")


def test_readme_documents_every_codemod_and_its_safety():
    from pathlib import Path

    from empty_migrate.codemods import DECLARATIONS

    readme = (Path(__file__).parents[2] / "docs/codemods.md").read_text()
    for codemod in DECLARATIONS:
        safety = "unsafe" if codemod.changes_scores else "safe"
        assert f"| `{codemod.name}` | {safety} |" in readme, codemod.name


def test_installing_the_router_alone_does_not_bump_an_eval(repo, registry, capsys):
    (registry / "gamma.yaml").write_text(
        ENTRY.replace("[wrap_router]", "[wrap_router, bump_task_version, changelog]")
    )
    path = repo / "src/inspect_evals/gamma/gamma.py"
    path.write_text(
        path.read_text()
        .replace(
            "scorer=choice()", 'scorer=route_empty_responses(choice(), category="qa")'
        )
        .replace(
            "from inspect_ai.scorer import choice\n",
            "from inspect_ai.scorer import choice\n\n"
            "from inspect_evals.utils.empty_response import route_empty_responses\n",
        )
    )
    (repo / "src/inspect_evals/gamma/eval.yaml").write_text('version: "1-A"\n')
    assert (
        main(
            [
                "--eval",
                "gamma",
                "--dry-run",
                "--repo",
                str(repo),
                "--registry",
                str(registry),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "src/inspect_evals/utils/empty_response.py" in out
    assert "eval.yaml" not in out and "changelog.d" not in out


BUMPED = ["wrap_router", "bump_task_version", "changelog"]


def test_evals_sharing_a_helper_each_get_a_version_bump_once(
    demo, repo, registry, capsys
):
    demo.write({"src/inspect_evals/utils/shared.py": SHARED_HELPER})
    for name in ("alpha", "beta"):
        demo.add_eval(
            name, {f"{name}.py": shared_task(name)}, shared_entry(name, BUMPED)
        )
        demo.write(versioned(name, name.title()))
    arguments = [
        "--repo",
        str(repo),
        "--registry",
        str(registry),
        "--today",
        "2026-11-29",
    ]
    evals = ["--eval", "alpha", "--eval", "beta"]

    assert main([*evals, *arguments]) == 0
    helper = (repo / "src/inspect_evals/utils/shared.py").read_text()
    assert helper.count("route_empty_responses(") == 1
    for name in ("alpha", "beta"):
        # beta's scoring changed through alpha's rewrite of the shared helper
        eval_yaml = repo / f"src/inspect_evals/{name}/eval.yaml"
        assert 'version: "3-A"' in eval_yaml.read_text(), name
        readme = repo / f"src/inspect_evals/{name}/README.md"
        assert "### [3-A] - 2026-11-29" in readme.read_text(), name
    capsys.readouterr()
    assert main([*evals, "--dry-run", *arguments]) == 0
    assert capsys.readouterr().out == ""


def test_migrating_one_eval_of_a_shared_helper_brings_in_the_others_and_says_so(
    demo, repo, registry, capsys
):
    demo.write({"src/inspect_evals/utils/shared.py": SHARED_HELPER})
    for name in ("alpha", "beta"):
        entry = shared_entry(name, ["wrap_router"])
        demo.add_eval(name, {f"{name}.py": shared_task(name)}, entry)
    arguments = ["--dry-run", "-v", "--repo", str(repo), "--registry", str(registry)]
    assert main(["--eval", "alpha", *arguments]) == 0
    err = capsys.readouterr().err
    said = (
        "empty-migrate: alpha shares utils/shared.py (shared_scorer) with beta: "
        "migrating them together, each with its own version bump and changelog\n"
    )
    assert err.startswith(said)
    assert "alpha: rewritten" in err and "beta: rewritten" in err
    assert main(["--eval", "alpha", "--eval", "beta", *arguments]) == 0
    assert "migrating them together" not in capsys.readouterr().err


def test_a_codemod_crashing_on_one_eval_fails_it_and_migrates_the_rest(
    demo, repo, registry, capsys, monkeypatch
):
    from empty_migrate.codemods.wrap_router.rewrite import WrapRouter

    demo.add_eval("omega", {"omega.py": choice_task("omega")}, choice_entry("omega"))
    files = WrapRouter.files

    def crash_on_gamma(self, target):
        if target.name == "gamma":
            raise ValueError("injected\nsecond line")
        return files(self, target)

    monkeypatch.setattr(WrapRouter, "files", crash_on_gamma)
    (registry / "delta.yaml").unlink()
    assert run(repo, registry, "--all") == 3
    err = capsys.readouterr().err
    assert "gamma: failed: tool error: ValueError: injected\n" in err
    assert "second line" not in err
    assert "omega: rewritten:" in err
    assert (
        "route_empty_responses"
        in (repo / "src/inspect_evals/omega/omega.py").read_text()
    )
    assert (
        "route_empty_responses"
        not in (repo / "src/inspect_evals/gamma/gamma.py").read_text()
    )
