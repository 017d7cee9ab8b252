"""Copies of real logs whose header records another provenance.

The committed logs (``logs/data``) were run from a task file of their own, so
they record no inspect_evals. A copy made here records what a run of
inspect_evals records (its task as ``inspect_evals/<task>``, the package, or a
task file in the package), and keeps every other byte its release wrote: only
the ``eval`` object of the header changes, in each place the file holds it.
"""

import json
import zipfile
from pathlib import Path
from typing import Any

# the members of a .eval log that hold the eval spec
_EVAL_MEMBERS = ("header.json", "_journal/start.json")


def with_eval(source: Path, target: Path, **fields: Any) -> Path:
    """A copy of the log `source` at `target`, its ``eval`` fields set to `fields`.

    A dict (``packages``) is added to the one the log records.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.suffix == ".json":
        target.write_text(_changed(source.read_text(), fields))
        return target
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for item in old.infolist():
            data = old.read(item)
            if item.filename in _EVAL_MEMBERS:
                data = _changed(data.decode(), fields).encode()
            new.writestr(item, data)
    return target


def _changed(text: str, fields: dict[str, Any]) -> str:
    data = json.loads(text)
    for key, value in fields.items():
        if isinstance(value, dict):
            value = {**(data["eval"].get(key) or {}), **value}
        data["eval"][key] = value
    return json.dumps(data, indent=2)


INSPECT_EVALS_PROVENANCES: dict[str, dict[str, Any]] = {
    "task name": {"task": "inspect_evals/{task}"},
    "package": {"packages": {"inspect_evals": "0.26.0"}},
    "task file": {"task_file": "src/inspect_evals/{task}/{task}.py"},
}
"""Each way a log records that it is a run of inspect_evals: the fields set."""


def provenance(kind: str, task: str) -> dict[str, Any]:
    """The ``eval`` fields of provenance `kind` for a run of `task`."""
    return json.loads(
        json.dumps(INSPECT_EVALS_PROVENANCES[kind]).replace("{task}", task)
    )
