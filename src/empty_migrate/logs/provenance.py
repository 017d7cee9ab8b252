"""Which registered eval a log is a run of: by its provenance, then its task name.

A log records its task's name, which any task file may share with an
inspect_evals eval (SciCode's own task is named ``scicode`` too). So a log is
matched to a registry eval only when it says it is a run of inspect_evals:
its task is recorded as ``inspect_evals/<task>``, or inspect_evals is among
the packages the log records, or its task file lies in an ``inspect_evals``
package. Every command that matches a log to an eval asks `eval_of_log`.
"""

import re
from pathlib import PureWindowsPath

from inspect_ai.log import EvalLog

from empty_migrate.registry.loader import Registry
from empty_migrate.registry.tasks import eval_of_task, task_name

INSPECT_EVALS = "inspect_evals"


class NoEvalOfLog(Exception):
    """No registry eval is the log's: ``args[0]`` says why in one line.

    Attributes:
        looks_like: The eval and task the log's task name matches, when only
            its provenance is missing (pass ``--eval`` to audit it as one).
    """

    def __init__(self, message: str, looks_like: tuple[str, str] | None = None):
        super().__init__(message)
        self.looks_like = looks_like


def eval_of_log(registry: Registry, log: EvalLog) -> tuple[str, str]:
    """The registry eval and task a log is a run of, when the log says so.

    Args:
        registry: The registry whose tasks are looked up.
        log: The log (its header is enough).

    Returns:
        The eval, and the task as the registry names it.

    Raises:
        NoEvalOfLog: If the log records no inspect_evals provenance (then
            ``looks_like`` holds the eval its task name matches, if any), or
            its task is one no eval lists, or one several evals list.
    """
    recorded = log.eval.task
    try:
        found = eval_of_task(registry, recorded)
    except KeyError as error:
        raise NoEvalOfLog(f"the log is a run of {error.args[0]}") from None
    if inspect_evals_provenance(log) is None:
        raise NoEvalOfLog(_looks_like(task_name(recorded), *found), looks_like=found)
    return found


def inspect_evals_provenance(log: EvalLog) -> str | None:
    """What in the log says it is a run of inspect_evals, or None.

    Read by rule: a log of inspect-ai 0.3.79 has no ``task_registry_name``,
    and a task run from a file records no package but inspect_ai.
    """
    names = {log.eval.task, getattr(log.eval, "task_registry_name", None) or ""}
    for name in sorted(names):
        if name.partition("/")[0] == INSPECT_EVALS and "/" in name:
            return f"task {name!r}"
    for package, version in (getattr(log.eval, "packages", None) or {}).items():
        if _distribution(package) == INSPECT_EVALS:
            return f"package {package} {version}"
    task_file = getattr(log.eval, "task_file", None)
    if task_file and INSPECT_EVALS in PureWindowsPath(task_file).parts[:-1]:
        return f"task file {task_file}"
    return None


def _distribution(name: str) -> str:
    # a distribution's name as pip compares them: inspect-evals is inspect_evals
    return re.sub(r"[-_.]+", "_", name).lower()


def _looks_like(recorded: str, eval_name: str, task: str) -> str:
    of_eval = f" (a task of eval {eval_name})" if eval_name != task else ""
    return (
        f"{recorded!r} looks like inspect_evals' {task}{of_eval}, but the log "
        f"records no inspect_evals; pass `--eval {task}` to audit it as one"
    )
