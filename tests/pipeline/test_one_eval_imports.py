"""A one-eval migration loads what that eval needs, and nothing of inspect_ai.

XSTest's shape: a model-graded task whose scorer is built inline with
``preset_score_on_no_response``. Migrating it rewrites the call, installs the
router and the shared test helpers, writes the eval's policy test, bumps its
version and adds its changelog, all without importing inspect_ai (the fixture
outputs are committed data) or LibCST (the router call is written as text).
"""

import json
import subprocess
import sys

TASK = """\
from inspect_ai import Task, task
from inspect_ai.scorer import INCORRECT, model_graded_qa

from inspect_evals.utils.scorers import preset_score_on_no_response


@task
def demo() -> Task:
    return Task(
        dataset=[],
        scorer=preset_score_on_no_response(model_graded_qa(), INCORRECT),
    )
"""

PRESET = '''\
from inspect_ai.scorer import Scorer


def preset_score_on_no_response(grader: Scorer, no_response_value) -> Scorer:
    """Wrap a scorer so empty responses get a preset score."""
    return grader
'''

ENTRY = """\
category: safety
polarity: refusal_good
refusal_verdict: I
output: state.output
judge: scorer
today: "empty completion -> preset INCORRECT (demo/demo.py::demo)"
codemods: [replace_preset, wrap_router, judge_bypass, bump_task_version, changelog]
tasks:
  demo: {}
scorers:
  - name: demo
    file: demo/demo.py
    construct: task_scorer
"""

EVAL_YAML = 'title: Demo\nversion: "1-A"\ntasks:\n  - name: demo\n'

PROBE = """\
import json, sys
from empty_migrate.cli.main import main

code = main(sys.argv[1:])
loaded = sorted({name.split(".")[0] for name in sys.modules})
print(json.dumps({"code": code, "loaded": loaded}), file=sys.stderr)
"""


def test_migrating_one_eval_imports_no_inspect_ai_and_no_libcst(tmp_path):
    files = {
        "src/inspect_evals/__init__.py": "",
        "src/inspect_evals/demo/__init__.py": "",
        "src/inspect_evals/demo/demo.py": TASK,
        "src/inspect_evals/demo/eval.yaml": EVAL_YAML,
        "src/inspect_evals/demo/README.md": "# Demo\n",
        "src/inspect_evals/utils/__init__.py": "",
        "src/inspect_evals/utils/scorers.py": PRESET,
        "registry/demo.yaml": ENTRY,
    }
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    args = ["--eval", "demo", "--dry-run", "--repo", str(tmp_path)]
    args += ["--registry", str(tmp_path / "registry"), "--today", "2026-12-02"]
    run = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True
    )
    report = json.loads(run.stderr.strip().splitlines()[-1])
    assert report["code"] == 0, run.stderr
    assert "route_empty_responses(" in run.stdout  # the eval was migrated
    assert "tests/demo/test_empty_response_policy.py" in run.stdout
    assert "inspect_ai" not in report["loaded"]
    assert "libcst" not in report["loaded"]
