"""The task index: the eval a log's task belongs to, found without validating."""

import pytest

from empty_migrate.registry.loader import Registry
from empty_migrate.registry.tasks import eval_named, eval_of_task, task_index


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(folder))
    return folder


def entry(tasks: str) -> str:
    # the index reads only `tasks`: the rest of an entry need not be valid
    return f"category: qa\ntasks:{tasks}\n"


def registry_of(tmp_path, **texts: str) -> Registry:
    folder = tmp_path / "registry"
    folder.mkdir(exist_ok=True)
    for name, text in texts.items():
        (folder / f"{name}.yaml").write_text(text)
    return Registry(folder)


@pytest.mark.parametrize(
    ("recorded", "found"),
    [
        ("inspect_evals/gpqa_diamond", ("gpqa", "gpqa_diamond")),
        ("gpqa_diamond", ("gpqa", "gpqa_diamond")),
        ("inspect_evals/mmlu_0_shot", ("mmlu", "mmlu_0_shot")),
        ("mmlu_5_shot", ("mmlu", "mmlu_5_shot")),
        ("xstest", ("xstest", "xstest")),
        # an eval that lists no tasks is its own
        ("gdm_capabilities", ("gdm_capabilities", "gdm_capabilities")),
    ],
)
def test_a_logs_task_names_its_registered_eval(cache, recorded, found):
    assert eval_of_task(Registry(), recorded) == found


def test_an_unknown_task_names_close_matches(cache):
    with pytest.raises(KeyError) as error:
        eval_of_task(Registry(), "inspect_evals/gpqa_diamnd")
    assert error.value.args[0] == (
        "unknown task 'gpqa_diamnd'; did you mean 'gpqa_diamond'?"
    )


@pytest.mark.parametrize(
    ("recorded", "suggested"),
    [
        # a slip: a letter swapped, lost, added; words added or taken off
        ("xstets", "; did you mean 'xstest'?"),
        ("scicod", "; did you mean 'scicode'?"),
        ("mmlu_pr", "; did you mean 'mmlu_pro'?"),
        ("gsm8k_typo", "; did you mean 'gsm8k'?"),
        # another benchmark that shares a word with an eval is no slip for it
        ("oxdna_simple", ""),
        ("starsim_benchmark", ""),
    ],
)
def test_only_a_name_close_enough_is_suggested(cache, recorded, suggested):
    with pytest.raises(KeyError) as error:
        eval_of_task(Registry(), recorded)
    assert error.value.args[0] == f"unknown task {recorded!r}{suggested}"


def test_a_name_given_is_an_eval_or_one_of_its_tasks(cache):
    registry = Registry()
    assert eval_named(registry, "gpqa") == ("gpqa", None)
    assert eval_named(registry, "gpqa_diamond") == ("gpqa", "gpqa_diamond")
    assert eval_named(registry, "inspect_evals/mmlu_0_shot") == ("mmlu", "mmlu_0_shot")
    with pytest.raises(KeyError) as error:
        eval_named(registry, "xtest")
    # a close match is named once, though xstest is both an eval and a task
    assert error.value.args[0] == "unknown eval or task 'xtest'; did you mean 'xstest'?"


def test_a_task_two_evals_list_is_not_guessed(tmp_path, cache):
    registry = registry_of(
        tmp_path, one=entry("\n  shared: {}"), two=entry("\n  shared: {}")
    )
    for find in (eval_of_task, eval_named):
        with pytest.raises(KeyError) as error:
            find(registry, "shared")
        assert error.value.args[0] == (
            "task 'shared' is listed by evals one and two: name the eval it is a run of"
        )


def test_a_file_that_does_not_parse_is_its_own_task(tmp_path, cache):
    # so that naming it reaches the entry, whose load reports the problem
    registry = registry_of(tmp_path, broken="tasks: [unclosed\n", fine=entry(" {}"))
    assert task_index(registry) == {"broken": ("broken",), "fine": ("fine",)}


def test_the_index_is_kept_and_follows_the_texts(tmp_path, cache):
    registry = registry_of(tmp_path, demo=entry("\n  demo_a: {}"))
    assert task_index(registry) == {"demo_a": ("demo",)}
    assert len(list((cache / "task-index").iterdir())) == 1
    assert task_index(Registry(registry.directory)) == {"demo_a": ("demo",)}
    assert len(list((cache / "task-index").iterdir())) == 1
    # a changed text is a new key: the index is read again
    (registry.directory / "demo.yaml").write_text(entry("\n  demo_b: {}"))
    assert task_index(Registry(registry.directory)) == {"demo_b": ("demo",)}
    assert len(list((cache / "task-index").iterdir())) == 2


def test_finding_a_task_validates_no_entry(cache):
    eval_of_task(Registry(), "inspect_evals/gpqa_diamond")
    assert not (cache / "registry").exists()
