"""Which registered eval a task is part of: the task index.

An Inspect log records its task (``inspect_evals/gpqa_diamond``, or
``gpqa_diamond`` when run from a file), not the eval the registry files it
under (``gpqa``). The index maps every task the registry lists to its eval.
It is read from the ``tasks`` keys of the registry's files with a plain YAML
parse, not validated (the one eval found is validated when it is used), and
kept in the user cache under the files' names and texts, so a run finds a
task without validating, or even parsing, the other entries.
"""

import sys
from collections.abc import Mapping
from functools import cache

import yaml

from empty_migrate.registry.loader import Registry, unknown_name_message
from empty_migrate.target import yaml_files
from empty_migrate.target.kept import code_digest, keep, key_of, recall

TaskIndex = Mapping[str, tuple[str, ...]]
"""Each task name, to the evals that list it (one, in a sound registry)."""


def task_name(recorded: str) -> str:
    """A task's name without its package: ``inspect_evals/xstest`` -> ``xstest``."""
    return recorded.rpartition("/")[2]


def task_index(registry: Registry) -> TaskIndex:
    """Every task the registry lists, to its evals.

    An eval that lists no tasks is its own task (a log of it records the
    eval's name), and so is one whose file does not parse: naming it reaches
    the entry, whose load then reports the file's problems.
    """
    texts = registry.texts
    key = key_of(_indexed_by(), *(f"{name}\0{text}" for name, text in texts.items()))
    index = recall("task-index", key)
    if isinstance(index, dict):
        return index
    owners: dict[str, list[str]] = {}
    for name, text in texts.items():
        for task in _listed_tasks(text) or [name]:
            owners.setdefault(task, []).append(name)
    index = {task: tuple(evals) for task, evals in owners.items()}
    keep("task-index", key, index)
    return index


def eval_of_task(registry: Registry, recorded: str) -> tuple[str, str]:
    """The eval and task of a task name as a log records it.

    Raises:
        KeyError: If no eval lists the task (the message names close
            matches), or several do; ``args[0]`` is the message.
    """
    task = task_name(recorded)
    index = task_index(registry)
    owners = index.get(task, ())
    if len(owners) > 1:
        raise KeyError(
            f"task {task!r} is listed by evals {' and '.join(owners)}: "
            "name the eval it is a run of"
        )
    if not owners:
        raise KeyError(unknown_name_message("task", task, index))
    return owners[0], task


def eval_named(registry: Registry, name: str) -> tuple[str, str | None]:
    """The eval `name` names, as an eval or as one of its tasks.

    Returns:
        The eval, and the task when `name` is a task's name.

    Raises:
        KeyError: If `name` is neither (the message names close matches of
            both), or is a task several evals list; ``args[0]`` is the message.
    """
    if name in registry.files:
        return name, None
    index = task_index(registry)
    if task_name(name) not in index:
        known = dict.fromkeys([*registry.files, *index])
        raise KeyError(unknown_name_message("eval or task", name, known))
    return eval_of_task(registry, name)


def _listed_tasks(text: str) -> list[str]:
    try:
        data = yaml_files.load_yaml(text)
    except yaml.YAMLError:
        return []
    tasks = data.get("tasks") if isinstance(data, dict) else None
    return [str(task) for task in tasks] if isinstance(tasks, dict) else []


@cache
def _indexed_by() -> str:
    """What decides the index of a text: the code that reads it."""
    return code_digest([sys.modules[__name__], yaml_files])
