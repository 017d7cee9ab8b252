"""A log is an inspect_evals eval's only when it says so: real `inspect eval` runs.

The same task file, named for the registry's ``xstest``, is run three ways:
from an installed ``inspect_evals`` distribution (an entry point registers
its tasks, as the real package's does: the log records the task as
``inspect_evals/xstest`` and the package), from a file inside an
``inspect_evals`` package folder of a checkout (the log records only the task
file), and from a folder of its own (the log records nothing of
inspect_evals: a foreign task named like an eval).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log

from empty_migrate.cli.main import main
from empty_migrate.logs.outcomes import read_header
from empty_migrate.logs.provenance import (
    NoEvalOfLog,
    eval_of_log,
    inspect_evals_provenance,
)
from empty_migrate.registry.loader import Registry

# slow: three `inspect eval` runs (about 4 s each, run side by side)
pytestmark = [pytest.mark.inspect_versions, pytest.mark.slow]

TASK = """
from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.scorer import includes
from inspect_ai.solver import generate


@task
def xstest():
    # mockllm answers "Default output from mockllm/model"
    dataset = [
        Sample(id=1, input="Hello?", target="Default"),
        Sample(id=2, input="Hello?", target="Canberra"),
    ]
    return Task(dataset=dataset, solver=generate(), scorer=includes())
"""

PACKAGE_FILES = {
    "inspect_evals/__init__.py": "",
    "inspect_evals/_registry.py": "from inspect_evals.xstest.xstest import xstest\n",
    "inspect_evals/xstest/__init__.py": "",
    "inspect_evals/xstest/xstest.py": TASK,
}
DIST_INFO = {
    "METADATA": "Metadata-Version: 2.1\nName: inspect_evals\nVersion: 0.26.0\n",
    "entry_points.txt": "[inspect_ai]\ninspect_evals = inspect_evals._registry\n",
    "RECORD": "".join(f"{name},,\n" for name in PACKAGE_FILES),
}


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def run_three_ways(folder: Path) -> None:
    # inspect_ai prefixes a task with its package only when installed: on a
    # path in site-packages
    site = folder / "site-packages"
    write(site, PACKAGE_FILES)
    write(site / "inspect_evals-0.26.0.dist-info", DIST_INFO)
    write(folder / "checkout/src/inspect_evals/xstest", {"xstest.py": TASK})
    write(folder / "own", {"xstest.py": TASK})
    runs = {
        "installed": ("inspect_evals/xstest", str(site)),
        "task_file": ("checkout/src/inspect_evals/xstest/xstest.py", ""),
        "own": ("own/xstest.py", ""),
    }
    started = []
    for name, (spec, path) in runs.items():
        command = [sys.executable, "-m", "inspect_ai", "eval", spec]
        command += ["--model", "mockllm/model", "--log-dir", f"logs/{name}"]
        environment = {**os.environ, "PYTHONPATH": path}
        started.append(
            subprocess.Popen(
                [*command, "--display", "none"],
                cwd=folder,
                env=environment,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    for process in started:
        _, err = process.communicate(timeout=120)
        assert process.returncode == 0, err


@pytest.fixture(scope="module")
def logs(built_once) -> dict[str, Path]:
    """Run name -> the .eval log its `inspect eval` wrote (read-only)."""
    folder = built_once("provenance", run_three_ways)
    return {
        name: next((folder / "logs" / name).glob("*.eval"))
        for name in ("installed", "task_file", "own")
    }


def test_each_run_records_what_inspect_ai_records_of_its_origin(logs):
    installed, task_file, own = (
        read_header(logs[name]).eval for name in ("installed", "task_file", "own")
    )
    assert (installed.task, installed.packages.get("inspect_evals")) == (
        "inspect_evals/xstest",
        "0.26.0",
    )
    assert (task_file.task, set(task_file.packages)) == ("xstest", {"inspect_ai"})
    assert Path(task_file.task_file).parts[-3:] == (
        "inspect_evals",
        "xstest",
        "xstest.py",
    )
    assert (own.task, set(own.packages)) == ("xstest", {"inspect_ai"})
    assert Path(own.task_file).parts[-2:] == ("own", "xstest.py")


@pytest.mark.parametrize(
    ("run", "says"),
    [("installed", "task 'inspect_evals/xstest'"), ("task_file", "task file ")],
)
def test_a_run_of_inspect_evals_is_audited_as_its_eval(logs, capsys, run, says):
    header = read_header(logs[run])
    assert inspect_evals_provenance(header).startswith(says)
    assert eval_of_log(Registry(), header) == ("xstest", "xstest")
    assert main(["audit", "--log", str(logs[run])]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert (
        out.splitlines()[1] == "eval xstest (category safety), task xstest: 2 samples"
    )


def test_a_log_recording_only_the_package_is_a_run_of_inspect_evals(logs, tmp_path):
    # as a run whose task name lost its package prefix would record it
    log = read_eval_log(str(logs["installed"]), header_only=True)
    log.eval.task = log.eval.task_registry_name = "xstest"
    assert log.eval.task_file is None
    assert inspect_evals_provenance(log) == "package inspect_evals 0.26.0"
    assert eval_of_log(Registry(), log) == ("xstest", "xstest")


def test_a_foreign_task_named_like_an_eval_is_one_line_not_an_audit(logs, capsys):
    own = str(logs["own"])
    with pytest.raises(NoEvalOfLog) as error:
        eval_of_log(Registry(), read_header(own))
    assert error.value.looks_like == ("xstest", "xstest")
    assert main(["audit", "--log", own]) == 2
    assert capsys.readouterr() == (
        "",
        "empty-migrate: 'xstest' looks like inspect_evals' xstest, but the log "
        "records no inspect_evals; pass `--eval xstest` to audit it as one\n",
    )
    # the user's word stands: named, it is audited as the installed run is
    assert main(["audit", "--log", own, "--eval", "xstest", "--format", "json"]) == 0
    named = json.loads(capsys.readouterr().out)
    main(["audit", "--log", str(logs["installed"]), "--format", "json"])
    installed = json.loads(capsys.readouterr().out)
    assert {**named, "log": None} == {**installed, "log": None}


def test_a_folder_names_the_foreign_log_and_audits_the_others(logs, capsys):
    folder = logs["own"].parent.parent
    assert main(["audit", "--log", str(folder), "--format", "json"]) == 2
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert [Path(log["log"]).parent.name for log in report["logs"]] == [
        "installed",
        "task_file",
    ]
    [foreign] = report["not_audited"]
    assert foreign.startswith(f"{logs['own']}: 'xstest' looks like inspect_evals'")
    assert err == f"empty-migrate: {foreign}\n"
