"""Every command that reads a registry: a malformed one is one line and exit 2.

Each case of `tests.malformed_yaml.REGISTRY_CASES` (the registry's one entry,
``demo.yaml``, broken) and each folder that is no registry goes through the
real command line, in process; nothing may reach the target.
"""

import pytest

from empty_migrate.cli.main import main
from tests.demo import SHARED_HELPER, shared_entry, shared_task
from tests.malformed_yaml import REGISTRY_CASES

COMMANDS = {
    "migrate": ["--eval", "demo", "--repo", "{repo}"],
    "migrate --dry-run": ["--eval", "demo", "--dry-run", "--repo", "{repo}"],
    "migrate --check": ["--eval", "demo", "--check", "--repo", "{repo}"],
    "migrate --all": ["--all", "--dry-run", "--repo", "{repo}"],
    "migrate --branch-per-eval": [
        *("--eval", "demo", "--branch-per-eval", "--repo", "{repo}"),
    ],
    "registry list": ["registry", "list"],
    "registry show": ["registry", "show", "demo"],
    "registry validate": ["registry", "validate", "--repo", "{repo}"],
    "registry scan": ["registry", "scan", "--repo", "{repo}"],
    "registry scaffold": ["registry", "scaffold", "demo", "--repo", "{repo}"],
    "audit": ["audit", "--eval", "demo", "--repo", "{repo}"],
    "audit --all": ["audit", "--all", "--repo", "{repo}"],
    "audit --log": ["audit", "--log", "{repo}/demo.eval", "--eval", "demo"],
}
"""Each command that reads a registry, with --registry left to add."""


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))


def run(command, repo, registry, capsys):
    """Run `command` with ``--registry``; returns its exit code and stderr lines."""
    args = [arg.replace("{repo}", str(repo)) for arg in COMMANDS[command]]
    code = main([*args, "--registry", str(registry)])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err.splitlines()


@pytest.mark.parametrize("case", REGISTRY_CASES)
def test_a_malformed_entry_is_one_line_and_exit_2(demo, case, capsys):
    path = demo.registry / "demo.yaml"
    REGISTRY_CASES[case].write(path)
    code, [line] = run("migrate --dry-run", demo.repo, demo.registry, capsys)
    assert code == 2
    assert line.startswith(f"{path}{REGISTRY_CASES[case].problem}")


SOME_CASES = ["not_utf8", "duplicate_key", "alias_bomb", "folder"]
"""A file that cannot be decoded, read or composed, and one that is no file."""


@pytest.mark.parametrize("case", SOME_CASES)
@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_reports_it_so(demo, command, case, capsys):
    path = demo.registry / "demo.yaml"
    REGISTRY_CASES[case].write(path)
    code, [line] = run(command, demo.repo, demo.registry, capsys)
    assert code == 2
    assert line.startswith(f"{path}{REGISTRY_CASES[case].problem}")


NOT_A_REGISTRY = {
    "missing": ("missing", "no such folder"),
    "a_file": ("repo/pyproject.toml", "not a folder"),
    "empty_folder": ("registry", "holds no <eval>.yaml registry entries"),
}


def says_what_to_pass(registry, problem):
    return [
        f"empty-migrate: --registry {registry}: {problem}; pass the folder of "
        "<eval>.yaml entries, or leave --registry out for the registry this tool "
        "ships"
    ]


@pytest.mark.parametrize("folder", NOT_A_REGISTRY)
def test_a_folder_that_is_no_registry_says_what_to_pass(demo, folder, capsys):
    name, problem = NOT_A_REGISTRY[folder]
    registry = demo.root / name
    code, lines = run("migrate --dry-run", demo.repo, registry, capsys)
    assert (code, lines) == (2, says_what_to_pass(registry, problem))


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_refuses_a_missing_registry(demo, command, capsys):
    registry = demo.root / "missing"
    code, lines = run(command, demo.repo, registry, capsys)
    assert (code, lines) == (2, says_what_to_pass(registry, "no such folder"))


def test_several_problems_end_with_their_count(demo, capsys):
    REGISTRY_CASES["duplicate_key"].write(demo.registry / "demo.yaml")
    REGISTRY_CASES["not_utf8"].write(demo.registry / "other.yaml")
    code, lines = run("registry list", demo.repo, demo.registry, capsys)
    assert code == 2
    assert len(lines) == 3 and lines[-1] == "registry invalid: 2 problem(s)"


def test_a_broken_entry_of_a_sharer_the_run_brings_in_stops_it_before_anything(
    demo, capsys
):
    """alpha's migration rewrites the helper beta scores with: beta's entry counts."""
    demo.write({"src/inspect_evals/utils/shared.py": SHARED_HELPER})
    for name in ("alpha", "beta"):
        entry = shared_entry(name, ["wrap_router"])
        demo.add_eval(name, {f"{name}.py": shared_task(name)}, entry)
    beta = demo.registry / "beta.yaml"
    beta.write_text(beta.read_text() + "category: qa\n")  # names the helper still
    args = ["--eval", "alpha", "--dry-run", "--repo", str(demo.repo)]
    assert main([*args, "--registry", str(demo.registry)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"{beta}:" in captured.err and "duplicate key" in captured.err
    assert "Traceback" not in captured.err
