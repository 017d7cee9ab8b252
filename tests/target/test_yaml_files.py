"""The target's YAML, read as hostile: refused like a file that does not parse.

A stranger's checkout may hold an alias bomb, an alias inside itself, values
that are not what their tags say or bytes that are not UTF-8 in the YAML the
tool reads (``.pre-commit-config.yaml``, each eval's ``eval.yaml``). The
reader refuses them with `yaml.YAMLError`; every caller treats that as a file
that does not parse, and a run over such a target completes.
"""

import pytest
import yaml

from empty_migrate.cli.main import main
from empty_migrate.delivery.pull_request import eval_changes
from empty_migrate.target.ruff import pinned_version
from empty_migrate.target.yaml_files import (
    REPEATED_NODES_LIMIT,
    load_yaml,
    read_yaml,
)
from tests.delivery.campaigns import EVAL_YAML, gamma_branch
from tests.demo import choice_entry, choice_task, versioned
from tests.malformed_yaml import HOSTILE, alias_bomb


@pytest.mark.parametrize("case", HOSTILE)
def test_hostile_yaml_is_refused(case):
    with pytest.raises(yaml.YAMLError):
        load_yaml(HOSTILE[case])


def test_aliases_may_repeat_values_up_to_a_limit():
    three = load_yaml(alias_bomb(levels=3))  # 9**3 strings, 820 values in all
    assert three["lol3"] == [[["lol"] * 9] * 9] * 9
    with pytest.raises(
        yaml.YAMLError, match=f"repeat more than {REPEATED_NODES_LIMIT}"
    ):
        load_yaml(alias_bomb(levels=5))  # 66430 values


def test_a_configuration_sharing_an_anchor_reads_as_usual():
    text = (
        "defaults: &defaults {stages: [pre-commit], exclude: ^golden/}\n"
        "repos:\n"
        "  - {repo: local, <<: *defaults}\n"
        "  - {repo: other, <<: *defaults}\n"
    )
    data = load_yaml(text)
    assert data["repos"][1] == {
        "repo": "other",
        "stages": ["pre-commit"],
        "exclude": "^golden/",
    }
    assert load_yaml("") is None


def test_a_file_that_cannot_be_read_is_refused_like_one_that_does_not_parse(
    tmp_path,
):
    (tmp_path / "latin1.yaml").write_bytes(b"title: caf\xe9\n")
    (tmp_path / "folder.yaml").mkdir()
    for name in ("latin1.yaml", "folder.yaml", "missing.yaml"):
        with pytest.raises(yaml.YAMLError, match="cannot be read"):
            read_yaml(tmp_path / name)


@pytest.mark.parametrize("case", [*HOSTILE, "not_utf8"])
def test_a_hostile_pre_commit_config_pins_no_ruff(tmp_path, case):
    config = tmp_path / ".pre-commit-config.yaml"
    if case == "not_utf8":
        config.write_bytes(b"repos: []\n# caf\xe9\n")
    else:
        config.write_text(HOSTILE[case])
    assert pinned_version(tmp_path) is None


@pytest.mark.parametrize("case", HOSTILE)
def test_a_hostile_eval_yaml_titles_the_pull_request_with_the_eval_name(case):
    eval_yaml = 'title: "Gamma: choices"\nversion: "3-B"\n' + HOSTILE[case]
    branch = gamma_branch()
    [change] = eval_changes(branch)
    assert change.title == "Gamma"
    branch.files[EVAL_YAML] = eval_yaml
    [change] = eval_changes(branch)
    assert change.title == "gamma"


BUMPED = ["wrap_router", "bump_task_version", "changelog"]


@pytest.mark.parametrize(
    "case", ["alias_bomb", "recursive_alias", "date_that_does_not_exist"]
)
def test_a_run_over_a_hostile_target_completes(demo, case, capsys, monkeypatch):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(demo.root / "cache"))
    demo.add_eval(
        "gamma", {"gamma.py": choice_task("gamma")}, choice_entry("gamma", BUMPED)
    )
    files = versioned("gamma", "Gamma")
    files[EVAL_YAML] += HOSTILE[case]
    files[".pre-commit-config.yaml"] = HOSTILE[case]
    demo.write(files)
    args = ["--eval", "gamma", "--dry-run", "-v", "--repo", str(demo.repo)]
    args += ["--registry", str(demo.registry), "--today", "2026-12-01"]
    assert main(args) == 0
    [line, summary] = capsys.readouterr().err.splitlines()
    fragment = "changelog.d/20261201_empty_migrate_gamma.md"
    assert line.startswith(f"gamma: skipped: {fragment}: eval.yaml does not parse")
    assert summary.startswith("1 evals: 0 rewritten, 0 unchanged, 1 skipped")
