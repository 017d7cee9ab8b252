"""Registry validation: every problem as file:line: key: problem, all at once."""

import textwrap

import pytest

from empty_migrate.cli.main import main
from empty_migrate.entries.schema import resolve
from empty_migrate.registry.loader import RegistryError, load_entry, load_registry

VALID = """\
category: safety
polarity: per_sample
polarity_key: label
refusal_verdict: I
output: state.output
judge: scorer
today: "empty -> preset INCORRECT (demo/scorer.py::demo_scorer)"
codemods: [replace_preset, wrap_router, bump_task_version, changelog]
tasks:
  demo: {}
  demo_benign:
    polarity: refusal_bad
    refusal_verdict: C
scorers:
  - name: demo_scorer
    file: demo/scorer.py
    construct: factory
polarity_labels: {refusal_good: unsafe, refusal_bad: safe}
"""


def write(tmp_path, text, name="demo"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(textwrap.dedent(text))
    return path


def problems(tmp_path, text):
    _, found = load_entry(write(tmp_path, text))
    return found


def test_valid_entry_loads(tmp_path):
    entry, found = load_entry(write(tmp_path, VALID))
    assert found == []
    assert entry.scorers[0].construct == "factory"


def test_inheritance_resolves_per_task(tmp_path):
    entry, _ = load_entry(write(tmp_path, VALID))
    benign = resolve(entry, "demo_benign", entry.scorers[0])
    harmful = resolve(entry, "demo", entry.scorers[0])
    assert (benign.polarity, benign.refusal_verdict) == ("refusal_bad", "C")
    assert (harmful.polarity, harmful.refusal_verdict) == ("per_sample", "I")
    assert harmful.polarity_key == "label"


def test_unknown_key(tmp_path):
    text = VALID.replace("judge: scorer", "judge: scorer\njudge_model: gpt")
    [problem] = problems(tmp_path, text)
    assert problem.endswith(":7: judge_model: not a key the registry knows")


def test_unknown_key_in_a_scorer(tmp_path):
    text = VALID.replace(
        "    construct: factory", "    construct: factory\n    kind: x"
    )
    [problem] = problems(tmp_path, text)
    assert problem.endswith(":18: scorers[0].kind: not a key the registry knows")


def test_wrong_enum_value(tmp_path):
    [problem] = problems(tmp_path, VALID.replace("category: safety", "category: chat"))
    assert ":1: category: Input should be 'qa', 'model_graded'" in problem


def test_wrong_construct(tmp_path):
    [problem] = problems(tmp_path, VALID.replace("factory", "decorator"))
    assert ":17: scorers[0].construct: Input should be 'factory'" in problem


def test_per_sample_polarity_without_labels(tmp_path):
    labels = "polarity_labels: {refusal_good: unsafe, refusal_bad: safe}\n"
    found = problems(tmp_path, VALID.replace(labels, ""))
    assert found
    assert all("per_sample polarity needs polarity_labels" in p for p in found)


def test_polarity_labels_need_both_polarities(tmp_path):
    text = VALID.replace("refusal_good: unsafe, refusal_bad: safe", "good: unsafe")
    assert any("polarity_labels" in p for p in problems(tmp_path, text))


def test_per_sample_polarity_without_key(tmp_path):
    found = problems(tmp_path, VALID.replace("polarity_key: label\n", ""))
    assert found
    assert all("per_sample polarity needs polarity_key" in p for p in found)
    assert any(p.split(":")[1] == "14" for p in found)  # the scorer's line


def test_safety_scorer_without_refusal_verdict(tmp_path):
    found = problems(tmp_path, VALID.replace("refusal_verdict: I\n", ""))
    assert found == [
        f"{tmp_path / 'demo.yaml'}:14: scorers[0].refusal_verdict: "
        "a safety scorer needs refusal_verdict (in task 'demo')"
    ]


def test_scorer_task_must_exist(tmp_path):
    text = VALID.replace("factory\n", "factory\n    tasks: [demo_typo]\n")
    [problem] = problems(tmp_path, text)
    assert "scorers[0].tasks: task 'demo_typo' is not in tasks" in problem


TODAY = '"empty -> preset INCORRECT (demo/scorer.py::demo_scorer)"'


def test_today_must_cite_the_code(tmp_path):
    [problem] = problems(tmp_path, VALID.replace(TODAY, "INCORRECT"))
    assert problem.endswith(
        ":7: today: cites no code: cite the code as path::symbol "
        "(xstest/xstest.py::xstest_scorer)"
    )


@pytest.mark.parametrize(
    ("cited", "written"),
    [
        ("demo/scorer.py:12", "'demo/scorer.py:12'"),
        ("demo/scorer.py:12-14", "'demo/scorer.py:12-14'"),
        ("demo/README.md:3", "'demo/README.md:3'"),
        ("line 12", "'line 12'"),
    ],
)
def test_a_line_citation_is_refused_wherever_it_is(tmp_path, cited, written):
    text = VALID.replace(TODAY, f'"empty -> INCORRECT ({cited})"').replace(
        "    construct: factory\n",
        f'    construct: factory\n    note: "its empty path, {cited}"\n',
    )
    moved = f"{written} cites lines, which move: cite the code as path::symbol"
    assert [p.split(":", 1)[1] for p in problems(tmp_path, text)] == [
        f"7: today: {moved} (xstest/xstest.py::xstest_scorer)",
        f"18: scorers[0].note: {moved} (xstest/xstest.py::xstest_scorer)",
    ]


def test_none_needs_a_reason(tmp_path):
    text = VALID.replace(
        "[replace_preset, wrap_router, bump_task_version, changelog]", "none"
    )
    [problem] = problems(tmp_path, text)
    assert problem.endswith(":8: codemods: 'none' needs a codemods_reason")


def test_unknown_codemod(tmp_path):
    found = problems(tmp_path, VALID.replace("wrap_router", "wrap_routr"))
    assert any(
        ":8: codemods[1]: unknown codemod 'wrap_routr'; did you mean 'wrap_router'?"
        in p
        for p in found
    )


def test_yaml_syntax_error(tmp_path):
    [problem] = problems(tmp_path, VALID.replace("tasks:\n", "tasks: [\n"))
    assert ": (yaml): " in problem


def test_all_problems_of_all_files_at_once(tmp_path):
    write(tmp_path, VALID.replace("category: safety", "category: chat"), "one")
    write(tmp_path, VALID.replace("judge: scorer", "judge: x\nextra: 1"), "two")
    write(tmp_path, VALID, "three")
    with pytest.raises(RegistryError) as raised:
        load_registry(tmp_path)
    assert [p.split(": ")[0].rsplit("/", 1)[1] for p in raised.value.problems] == [
        "one.yaml:1",
        "two.yaml:6",
        "two.yaml:7",
    ]


def test_cli_reports_every_problem_and_exits_2_before_anything_else(tmp_path, capsys):
    write(tmp_path, VALID.replace("category: safety", "category: chat"), "one")
    write(tmp_path, VALID.replace("judge: scorer", "judge_model: gpt"), "two")
    tree = tmp_path / "tree"
    (tree / "src/inspect_evals").mkdir(parents=True)
    (tree / "src/inspect_evals/__init__.py").write_text("")
    code = main(["registry", "scan", "--registry", str(tmp_path), "--repo", str(tree)])
    err = capsys.readouterr().err.splitlines()
    assert code == 2
    assert err[-1] == "registry invalid: 3 problem(s)"
    assert "one.yaml:1: category: Input should be" in err[0]
    assert "two.yaml:1: judge: Field required" in err[1]
    assert "two.yaml:6: judge_model: not a key the registry knows" in err[2]


def test_show_unknown_eval_suggests(tmp_path, capsys):
    write(tmp_path, VALID, "xstest")
    code = main(["registry", "show", "xtest", "--registry", str(tmp_path)])
    assert code == 2
    assert capsys.readouterr().err == (
        "empty-migrate: unknown eval 'xtest'; did you mean 'xstest'?\n"
    )


def test_show_prints_resolved_values_per_task(tmp_path, capsys):
    write(tmp_path, VALID, "demo")
    assert main(["registry", "show", "demo", "--registry", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "task=demo_benign  scorer=demo_scorer  category=safety" in out
    assert "polarity=refusal_bad" in out and "refusal_verdict=C" in out


def test_list_json(tmp_path, capsys):
    write(tmp_path, VALID, "demo")
    assert (
        main(["registry", "list", "--format", "json", "--registry", str(tmp_path)]) == 0
    )
    import json

    [row] = json.loads(capsys.readouterr().out)
    assert row["eval"] == "demo" and row["key"] == "label"


def test_list_table_aligns_long_values(tmp_path, capsys):
    write(tmp_path, VALID, "demo")
    assert main(["registry", "list", "--registry", str(tmp_path)]) == 0
    header, row, total = capsys.readouterr().out.splitlines()
    assert row.index("replace_preset") == header.index("codemods")
    assert "per_sample:label" in row and total == "1 evals"


def test_test_updates_need_the_update_tests_codemod(tmp_path):
    text = VALID + (
        "test_updates:\n"
        "  - test: tests/demo/test_scorer.py::test_empty\n"
        '    why: "an empty answer is now NOANSWER"\n'
        "    edits:\n"
        '      - {old: "INCORRECT", new: "NOANSWER"}\n'
    )
    [problem] = problems(tmp_path, text)
    assert "test_updates and the update_tests codemod go together" in problem


def test_a_verdict_expression_must_parse(tmp_path):
    text = VALID.replace(
        "refusal_verdict: I\n",
        "refusal_verdict: {expression: 'lambda state:', meaning: 'a broken lambda'}\n",
    )
    [problem] = problems(tmp_path, text)
    assert "refusal_verdict.expression" in problem
    assert "not a Python expression" in problem


def test_a_verdict_expression_names_what_it_needs_from_the_file(tmp_path):
    text = VALID.replace(
        "refusal_verdict: I\n",
        "refusal_verdict:\n"
        "  expression: 'lambda state, target: {**_empty(), \"n\": len(x for x in y)}'\n"
        "  meaning: 'the eval own empty value'\n",
    )
    entry, found = load_entry(write(tmp_path, text))
    assert found == []
    assert entry.refusal_verdict.free_names() == {"_empty", "y"}


SEVERAL_TASKS = """\
category: qa
polarity: neutral
output: state.output
judge: none
today: "empty -> INCORRECT (demo/demo.py::demo)"
codemods: [wrap_router, bump_task_version, changelog]
tasks:
  demo: {}
  demo_dialogue: {}
  demo_meta:
    output: none
scorers:
  - name: demo
    file: demo/demo.py
    construct: task_scorer
    tasks: [demo]
  - name: demo_inner
    file: demo/scorer.py
    construct: factory
    rewrite: false
    covered_by: demo
    tasks: [demo]
    note: "the factory the task calls inside its wrapped Task(scorer=...)"
  - name: dialogue_scorer
    file: demo/dialogue.py
    construct: factory
    rewrite: false
    tasks: [demo_dialogue]
    note: "judges a log of every turn; a person routes each turn in the solver"
  - name: meta_scorer
    file: demo/meta.py
    construct: factory
    rewrite: false
    tasks: [demo_meta]
    note: "grades the dataset's fixed completion, never the model's"
"""


def test_a_task_no_wrap_covers_is_listed_as_unrouted_with_its_note(tmp_path, capsys):
    write(tmp_path, SEVERAL_TASKS, "demo")
    assert (
        main(["registry", "list", "--format", "json", "--registry", str(tmp_path)]) == 0
    )
    import json

    [row] = json.loads(capsys.readouterr().out)
    # demo is wrapped; demo_meta never reads the model's output
    [(task, note)] = row["unrouted_tasks"].items()
    assert task == "demo_dialogue"
    assert note.startswith("judges a log of every turn")
    assert row["reason"] is None
    assert main(["registry", "list", "--registry", str(tmp_path)]) == 0
    assert "(unrouted: demo_dialogue)" in capsys.readouterr().out


def test_covered_by_must_name_a_rewritten_entry(tmp_path):
    text = SEVERAL_TASKS.replace("covered_by: demo", "covered_by: meta_scorer")
    [problem] = problems(tmp_path, text)
    assert (
        "covered_by 'meta_scorer' is not a scorer entry of this eval that is rewritten"
        in problem
    )


def test_output_locations(tmp_path):
    for location in [
        "first_assistant",
        "every_assistant",
        "store:a,b",
        "completions:forks",
    ]:
        assert (
            problems(
                tmp_path, VALID.replace("output: state.output", f"output: {location}")
            )
            == []
        )
    assert problems(
        tmp_path, VALID.replace("output: state.output", "output: store:a,,b")
    )


def test_a_checked_text_is_read_back_without_validating_it_again(tmp_path, monkeypatch):
    from empty_migrate.registry import loader

    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    path = write(tmp_path, VALID, "demo")
    first, problems = loader.load_entry(path)
    assert first is not None and problems == []

    def no_validation(data):
        raise AssertionError("validated again")

    monkeypatch.setattr(loader, "validate_entry", no_validation)
    assert loader.load_entry(path) == (first, [])
    path.write_text(VALID.replace("category: safety", "category: qa"))
    with pytest.raises(AssertionError, match="validated again"):
        loader.load_entry(path)
