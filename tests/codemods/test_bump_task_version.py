"""bump_task_version: what the golden cases cannot show (they never skip)."""

from pathlib import Path

import pytest
import yaml

from empty_migrate.codemods import eval_target, implementation
from empty_migrate.codemods.kit.base import Skip
from empty_migrate.entries.schema import validate_entry
from empty_migrate.source.scan import scan_eval
from tests.codemods.golden import RUFF_CONFIG

ENTRY = """
category: qa
polarity: neutral
output: state.output
judge: none
today: "empty completion -> INCORRECT with no reason (demo/scorer.py:8)"
codemods: [wrap_router, bump_task_version, changelog]
tasks:
  demo: {}
scorers:
  - name: demo_scorer
    file: demo/scorer.py
    construct: factory
"""
SCORER = """\
from inspect_ai.scorer import Score, Target, accuracy, scorer
from inspect_ai.solver import TaskState


@scorer(metrics=[accuracy()])
def demo_scorer():
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=state.output.completion == target.text)

    return score
"""
EVAL_YAML = 'title: Demo\nversion: "3-D"\ntasks:\n  - name: demo\n'
README = "# Demo\n\n## Changelog\n\n### [3-D] - 2026-09-14\n\n- Fix a parser.\n"
BUMP = implementation("bump_task_version")


def _repo(tmp_path: Path, files: dict[str, str]) -> Path:
    base = {
        "pyproject.toml": RUFF_CONFIG,
        "src/inspect_evals/__init__.py": "",
        "src/inspect_evals/demo/__init__.py": "",
        "src/inspect_evals/demo/scorer.py": SCORER,
        "src/inspect_evals/demo/eval.yaml": EVAL_YAML,
        "src/inspect_evals/demo/README.md": README,
    }
    for path, text in (base | files).items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    return tmp_path


def _target(repo: Path, changed_by=("wrap_router",), today="2026-11-29"):
    entry = validate_entry(yaml.safe_load(ENTRY))
    return eval_target("demo", entry, scan_eval(repo, "demo"), repo, today, changed_by)


@pytest.mark.parametrize(
    "eval_yaml, reason",
    [
        ("title: Demo\n", "0 top-level version lines"),
        ('title: Demo\nversion: "1.0.1"\n', "is not N-X"),
        ('version: "2-A"\ntitle: Demo\nversion: "3-A"\n', "2 top-level version"),
    ],
)
def test_bump_skips_a_version_it_cannot_read(tmp_path, eval_yaml, reason):
    target = _target(_repo(tmp_path, {}))
    with pytest.raises(Skip, match=reason):
        BUMP.transform(eval_yaml, "src/inspect_evals/demo/eval.yaml", target)


def test_bump_ignores_a_nested_version_key(tmp_path):
    text = 'version: "3-D"\ntasks:\n  - name: demo\n    version: "9-Z"\n'
    target = _target(_repo(tmp_path, {}))
    bumped = BUMP.transform(text, "src/inspect_evals/demo/eval.yaml", target)
    assert bumped == text.replace('"3-D"', '"4-D"')
