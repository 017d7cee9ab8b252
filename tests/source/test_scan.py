"""registry scan: the static picture of a tree, and drift from the registry."""

import shutil

import pytest

from empty_migrate.analysis.scan import scan_repo
from empty_migrate.cli.main import main
from empty_migrate.entries.in_target import entry_path
from empty_migrate.registry.drift import drift, unresolved_references
from empty_migrate.registry.loader import load_registry
from empty_migrate.registry.target import registry_of
from tests.demo import write_files


def test_scan_finds_what_the_code_holds(synthetic_repo):
    scans = scan_repo(synthetic_repo)
    assert set(scans) == {"alpha", "docs"}
    alpha = scans["alpha"]
    assert set(alpha.tasks) == {"alpha", "alpha_mcq"}
    assert [str(f) for f in alpha.scorers.values()] == [
        "alpha/scorer.py:7: alpha_scorer"
    ]
    assert alpha.builtin_scorers == {"choice", "model_graded_qa"}
    assert [f.text for f in alpha.preset_calls] == [
        "preset_score_on_no_response(model_graded_qa(), 0.0)"
    ]
    assert [f.text for f in alpha.dead_checks] == ["not state.output"]
    assert [f.text for f in alpha.empty_checks] == ["not state.output.completion"]
    assert [f.text for f in alpha.judge_calls] == [
        "model_graded_qa()",
        "get_model('openai/gpt-4o')",
    ]
    assert scans["docs"].tasks == {}


def drift_lines(registry_dir, repo):
    registry = load_registry(registry_dir)
    return [str(d) for d in drift(registry, scan_repo(repo), repo)]


def test_no_drift_when_registry_matches(synthetic_repo, synthetic_registry, capsys):
    assert drift_lines(synthetic_registry, synthetic_repo) == []
    args = ["--registry", str(synthetic_registry), "--repo", str(synthetic_repo)]
    assert main(["registry", "scan", *args]) == 0
    assert main(["registry", "validate", *args]) == 0
    assert "no drift" in capsys.readouterr().out


def test_eval_missing_from_registry(synthetic_repo, synthetic_registry):
    write_files(
        synthetic_repo / "src/inspect_evals", {"beta/beta.py": "@task\ndef beta(): ..."}
    )
    assert drift_lines(synthetic_registry, synthetic_repo) == [
        "beta: missing from registry: tasks: beta; scorers: no @scorer"
    ]


def test_registered_eval_not_in_target(synthetic_repo, synthetic_registry):
    shutil.rmtree(synthetic_repo / "src/inspect_evals/docs")
    assert drift_lines(synthetic_registry, synthetic_repo) == [
        "docs: not in target: no package docs/ under src/inspect_evals"
    ]


def test_scorer_moved(synthetic_repo, synthetic_registry):
    package = synthetic_repo / "src/inspect_evals/alpha"
    (package / "scorer.py").rename(package / "scoring.py")
    assert drift_lines(synthetic_registry, synthetic_repo) == [
        "alpha: scorer vanished: alpha_scorer (alpha/scorer.py): "
        "alpha/scorer.py does not exist",
        "alpha: new scorer: @scorer alpha_scorer at alpha/scoring.py:7",
    ]
    write_files(package, {"scorer.py": "# scorers moved to scoring.py\n"})
    assert drift_lines(synthetic_registry, synthetic_repo)[0] == (
        "alpha: scorer moved: alpha_scorer (alpha/scorer.py): "
        "not in alpha/scorer.py; moved to alpha/scoring.py:7"
    )


def test_scorer_vanished(synthetic_repo, synthetic_registry):
    write_files(synthetic_repo / "src/inspect_evals/alpha", {"scorer.py": "X = 1\n"})
    assert drift_lines(synthetic_registry, synthetic_repo) == [
        "alpha: scorer vanished: alpha_scorer (alpha/scorer.py): "
        "no definition of 'alpha_scorer' in alpha/scorer.py"
    ]


def test_new_scorer_and_new_task(synthetic_repo, synthetic_registry):
    extra = (
        "@scorer(metrics=[])\ndef beta_scorer(): ...\n@task\ndef alpha_hard(): ...\n"
    )
    write_files(synthetic_repo / "src/inspect_evals/alpha", {"extra.py": extra})
    assert drift_lines(synthetic_registry, synthetic_repo) == [
        "alpha: new scorer: @scorer beta_scorer at alpha/extra.py:2",
        "alpha: new task: @task alpha_hard at alpha/extra.py:4",
    ]


def test_task_vanished(synthetic_repo, synthetic_registry):
    source = synthetic_repo / "src/inspect_evals/alpha/alpha.py"
    source.write_text(source.read_text().replace("def alpha_mcq", "def alpha_multi"))
    found = drift_lines(synthetic_registry, synthetic_repo)
    assert "alpha: task vanished: @task alpha_mcq is no longer defined" in found
    assert "alpha: new task: @task alpha_multi at alpha/alpha.py:14" in found


def test_scan_exits_1_on_drift_and_lists_it(synthetic_repo, synthetic_registry, capsys):
    shutil.rmtree(synthetic_repo / "src/inspect_evals/docs")
    args = ["--registry", str(synthetic_registry), "--repo", str(synthetic_repo)]
    assert main(["registry", "scan", *args]) == 1
    out = capsys.readouterr().out
    assert "drift: docs: not in target" in out and "1 drift(s)" in out


def test_validate_reports_unresolved_references(
    synthetic_repo, synthetic_registry, capsys
):
    write_files(synthetic_repo / "src/inspect_evals/alpha", {"scorer.py": "X = 1\n"})
    registry = load_registry(synthetic_registry)
    [problem] = unresolved_references(
        registry, scan_repo(synthetic_repo), synthetic_repo
    )
    assert problem.endswith(
        "alpha.yaml: scorers[1] alpha_scorer: no definition of 'alpha_scorer' in "
        "alpha/scorer.py"
    )
    args = ["--registry", str(synthetic_registry), "--repo", str(synthetic_repo)]
    assert main(["registry", "validate", *args]) == 2
    assert "registry invalid: 1 problem(s)" in capsys.readouterr().err


def test_validate_names_each_stale_citation(synthetic_repo, synthetic_registry, capsys):
    alpha = synthetic_registry / "alpha.yaml"
    alpha.write_text(
        alpha.read_text()
        .replace("alpha/alpha.py::alpha)", "alpha/alpha.py::alpah)")
        .replace(
            "    construct: factory\n",
            '    construct: factory\n    note: "see alpha/gone.py::helper"\n',
        )
    )
    args = ["--registry", str(synthetic_registry), "--repo", str(synthetic_repo)]
    assert main(["registry", "validate", *args]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{alpha}:5: today: stale citation alpha/alpha.py::alpah: alpha/alpha.py "
        "defines no alpah; did you mean 'alpha'?",
        f"{alpha}:19: scorers[1].note: stale citation alpha/gone.py::helper: no "
        f"file alpha/gone.py in {synthetic_repo / 'src/inspect_evals'} or "
        f"{synthetic_repo}",
        "registry invalid: 2 problem(s)",
    ]


def test_validate_checks_the_citations_of_a_targets_own_entries(
    synthetic_repo, synthetic_registry
):
    package = synthetic_repo / "src/inspect_evals"
    written = package / entry_path("docs").removeprefix("src/inspect_evals/")
    entry = (synthetic_registry / "docs.yaml").read_text()
    written.write_text(entry.replace("preset_score_on_no_response", "preset_score"))
    merged = registry_of(synthetic_repo, synthetic_registry)
    assert list(
        unresolved_references(merged, scan_repo(synthetic_repo), synthetic_repo)
    ) == [
        f"{written}:5: today: stale citation utils/scorers.py::preset_score: "
        "utils/scorers.py defines no preset_score; did you mean "
        "'preset_score_on_no_response'?"
    ]


def test_scan_json_holds_the_findings(synthetic_repo, synthetic_registry, capsys):
    args = ["--registry", str(synthetic_registry), "--repo", str(synthetic_repo)]
    assert main(["registry", "scan", "--format", "json", *args]) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    assert data["evals"]["alpha"]["dead_checks"] == [
        "alpha/scorer.py:9: not state.output"
    ]
    assert data["drift"] == []


@pytest.mark.parametrize(
    "bad", ["/nonexistent", "pypi:inspect-evals", "pypi:numpy==1.0"]
)
def test_bad_repo_is_one_line(synthetic_registry, capsys, bad):
    assert (
        main(["registry", "scan", "--registry", str(synthetic_registry), "--repo", bad])
        == 2
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("empty-migrate: ")


def test_scaffold_prints_a_starting_entry(synthetic_repo, synthetic_registry, capsys):
    args = ["--registry", str(synthetic_registry), "--repo", str(synthetic_repo)]
    assert main(["registry", "scaffold", "alpha", *args]) == 0
    out = capsys.readouterr().out
    assert "category: TODO" in out
    assert "  alpha_mcq: {}" in out
    assert "  - name: alpha_scorer\n    file: alpha/scorer.py\n" in out


def test_scaffold_unknown_package_suggests(synthetic_repo, synthetic_registry, capsys):
    args = ["--registry", str(synthetic_registry), "--repo", str(synthetic_repo)]
    assert main(["registry", "scaffold", "alpa", *args]) == 2
    assert "did you mean 'alpha'?" in capsys.readouterr().err


def test_calls_are_known_by_what_their_imports_bind(synthetic_repo):
    write_files(
        synthetic_repo / "src/inspect_evals",
        {
            "beta/scorers.py": (
                "import re\n"
                "import inspect_ai.scorer as sc\n"
                "from inspect_ai.scorer import match, model_graded_qa as graded\n"
                "from inspect_evals.utils.scorers import (\n"
                "    preset_score_on_no_response as preset,\n"
                ")\n\n"
                "def build():\n"
                "    re.match('a', 'b')\n"
                "    return [preset(graded(), 0), sc.includes()]\n"
            )
        },
    )
    beta = scan_repo(synthetic_repo)["beta"]
    assert [f.text for f in beta.judge_calls] == ["graded()"]
    assert [f.text for f in beta.preset_calls] == ["preset(graded(), 0)"]
    # re.match is not inspect_ai's match, though the file imports that too
    assert beta.builtin_scorers == {"model_graded_qa", "includes"}


def test_dead_checks_in_conditions_and_comprehensions(synthetic_repo):
    code = (
        "def f(state, states, args):\n"
        "    if state.output and state.output.completion:\n"
        "        pass\n"
        "    kept = [s for s in states if s.output]\n"
        "    if args.output:\n"
        "        pass\n"
    )
    write_files(synthetic_repo / "src/inspect_evals/alpha", {"more.py": code})
    dead = [str(f) for f in scan_repo(synthetic_repo)["alpha"].dead_checks]
    assert dead == [
        "alpha/more.py:2: state.output and state.output.completion",
        "alpha/more.py:4: s.output",
        "alpha/scorer.py:9: not state.output",
    ]


def test_a_dead_check_not_covered_by_the_codemods_is_drift(
    synthetic_repo, synthetic_registry
):
    registry_file = synthetic_registry / "alpha.yaml"
    registry_file.write_text(
        registry_file.read_text().replace(
            "replace_preset, wrap_router, replace_dead_check", "wrap_router"
        )
    )
    assert drift_lines(synthetic_registry, synthetic_repo) == [
        "alpha: not covered by replace_preset: alpha/alpha.py:10",
        "alpha: not covered by replace_dead_check: alpha/scorer.py:9",
    ]


def test_a_verdict_expression_naming_an_undefined_helper_is_drift(
    synthetic_repo, synthetic_registry
):
    entry = synthetic_registry / "alpha.yaml"
    entry.write_text(
        entry.read_text().replace(
            "    construct: factory\n",
            "    construct: factory\n"
            "    no_answer_verdict:\n"
            "      expression: '_no_answer_value(accuracy, Score)'\n"
            "      meaning: 'the scorer own no-answer value'\n",
        )
    )
    registry = load_registry(synthetic_registry)
    [problem] = unresolved_references(
        registry, scan_repo(synthetic_repo), synthetic_repo
    )
    assert problem.endswith(
        "alpha_scorer: verdict expression uses _no_answer_value, not defined in "
        "alpha/scorer.py"
    )
    [found] = drift_lines(synthetic_registry, synthetic_repo)
    assert found.startswith("alpha: verdict unresolved: alpha_scorer: ")


# -- following the output by data flow ----------------------------------------

FLOW_SCORER = """
from inspect_ai.scorer import Score, scorer

from inspect_evals.alpha.grading import GradingFunction, grade_email
from inspect_evals.utils import message_text


@scorer(metrics=[])
def flow_scorer(grading_module):
    async def score(state, target):
        model_response = state.output.completion
        if not model_response:
            return Score(value=0)
        grader: GradingFunction = getattr(grading_module, "grade_email")
        await grader({}, state.messages)
        for message in state.messages:
            text = message_text(message)
            state.metadata["seen"] = text
        return Score(value=1)

    return score
"""

FLOW_GRADING = """
from typing import Protocol

from inspect_evals.alpha.judging import semantic_judge


class GradingFunction(Protocol):
    async def __call__(self, metadata, messages): ...


def last_text(messages):
    for message in messages[::-1]:
        if message.role == "assistant":
            return message.text
    return ""


async def grade_email(metadata, messages):
    answer = last_text(messages)
    return await semantic_judge("prompt", answer.strip())
"""

FLOW_JUDGING = """
import re


async def semantic_judge(prompt, message, **options):
    if message in ["", {}, None]:
        return "fail"
    if not re.search("x", message):
        return "fail"
    return await judge_more(message, text=message)


async def judge_more(message, **options):
    return message
"""


def flow_repo(synthetic_repo):
    write_files(
        synthetic_repo / "src/inspect_evals",
        {
            "utils/__init__.py": "def message_text(m): ...\n",
            "alpha/flow.py": FLOW_SCORER,
            "alpha/grading.py": FLOW_GRADING,
            "alpha/judging.py": FLOW_JUDGING,
        },
    )
    return scan_repo(synthetic_repo)["alpha"]


def test_a_helper_the_output_reaches_across_modules_is_found(synthetic_repo):
    [helper] = flow_repo(synthetic_repo).helpers
    assert str(helper) == (
        "alpha/judging.py:6: semantic_judge: message in ['', {}, None] "
        "(via flow_scorer -> grader(messages) -> semantic_judge(message))"
    )
    assert (helper.function, helper.kind, helper.in_scorer) == (
        "semantic_judge",
        "empty",
        False,
    )


def test_the_output_is_followed_through_assignments_not_names(synthetic_repo):
    scan = flow_repo(synthetic_repo)
    assert [str(c) for c in scan.missed_by_name] == [
        "alpha/flow.py:12: flow_scorer.score: not model_response (via flow_scorer)"
    ]


def test_tuples_attributes_and_stripping_carry_the_output(synthetic_repo):
    code = (
        "from inspect_ai.scorer import scorer\n"
        "@scorer(metrics=[])\n"
        "def beta_scorer():\n"
        "    async def score(task_state, target):\n"
        "        output, n = task_state.output, 1\n"
        "        reply = output.message\n"
        "        words = reply.text.lower()\n"
        "        if words == '' or not output:\n"
        "            return None\n"
        "    return score\n"
    )
    write_files(synthetic_repo / "src/inspect_evals/alpha", {"beta.py": code})
    [check] = scan_repo(synthetic_repo)["alpha"].missed_by_name
    assert (check.line, check.check, check.kind) == (
        8,
        "words == '' or not output",
        "empty",
    )


def test_places_the_output_is_not_followed_are_listed(synthetic_repo):
    places = [str(f) for f in flow_repo(synthetic_repo).unfollowed]
    assert places == [
        "alpha/flow.py:17: message_text(message): passed to "
        "inspect_evals.utils.message_text, outside the package",
        "alpha/flow.py:18: state.metadata['seen'] = text: stored into state.metadata",
        "alpha/judging.py:10: judge_more(message, text=message): "
        "passed via *args/**kwargs into judge_more",
    ]


def test_an_unresolvable_call_is_listed(synthetic_repo):
    code = (
        "from inspect_ai.scorer import scorer\n"
        "@scorer(metrics=[])\n"
        "def gamma_scorer(inner):\n"
        "    async def score(state, target):\n"
        "        return await inner(state.output.completion)\n"
        "    return score\n"
    )
    write_files(synthetic_repo / "src/inspect_evals/alpha", {"gamma.py": code})
    assert [str(f) for f in scan_repo(synthetic_repo)["alpha"].unfollowed] == [
        "alpha/gamma.py:5: inner(state.output.completion): a call the scan "
        "cannot resolve (inner is a variable)"
    ]


HELPER_YAML = """\
helpers:
  - name: semantic_judge
    file: alpha/judging.py
    note: "returns fail on an empty judged text without a judge call"
"""


def test_an_unrecorded_helper_is_drift(synthetic_repo, synthetic_registry):
    flow_repo(synthetic_repo)
    assert drift_lines(synthetic_registry, synthetic_repo) == [
        "alpha: new scorer: @scorer flow_scorer at alpha/flow.py:9",
        "alpha: unrecorded helper: alpha/judging.py:6: semantic_judge: message in "
        "['', {}, None] (via flow_scorer -> grader(messages) -> "
        "semantic_judge(message))",
    ]


def test_a_recorded_helper_is_not_drift_until_it_vanishes(
    synthetic_repo, synthetic_registry
):
    flow_repo(synthetic_repo)
    entry = synthetic_registry / "alpha.yaml"
    entry.write_text(entry.read_text() + HELPER_YAML)
    assert "unrecorded helper" not in " ".join(
        drift_lines(synthetic_registry, synthetic_repo)
    )
    judging = synthetic_repo / "src/inspect_evals/alpha/judging.py"
    judging.write_text(judging.read_text().replace('"", {}, None', "None"))
    assert (
        "alpha: helper vanished: semantic_judge (alpha/judging.py): the scan finds "
        "no empty check on the output in it"
    ) in drift_lines(synthetic_registry, synthetic_repo)


def test_scan_prints_helpers_and_places_not_followed(
    synthetic_repo, synthetic_registry, capsys
):
    import json

    flow_repo(synthetic_repo)
    args = ["--registry", str(synthetic_registry), "--repo", str(synthetic_repo)]
    assert main(["registry", "scan", *args]) == 1
    out = capsys.readouterr().out
    assert "alpha: helper (not recorded): alpha/judging.py:6: semantic_judge:" in out
    assert "alpha: found by following the output: alpha/flow.py:12:" in out
    assert "alpha: not followed: alpha/flow.py:17: message_text(message)" in out
    assert main(["registry", "scan", "--format", "json", *args]) == 1
    alpha = json.loads(capsys.readouterr().out)["evals"]["alpha"]
    assert alpha["helpers"][0]["route"] == (
        "flow_scorer -> grader(messages) -> semantic_judge(message)"
    )
    assert alpha["helpers"][0]["recorded"] is False
    assert len(alpha["not_followed"]) == 3


def test_an_unrecorded_helper_does_not_stop_a_migration(
    synthetic_repo, synthetic_registry
):
    from empty_migrate.registry.drift import eval_drift

    scan = flow_repo(synthetic_repo)
    registry = load_registry(synthetic_registry)
    kinds = {d.kind for d in eval_drift(registry, "alpha", scan, synthetic_repo)}
    assert "unrecorded helper" not in kinds


FORKING_SOLVER = """
from inspect_ai.solver import fork, generate, solver


@solver
def forks(k: int = 3):
    async def solve(state, generate_fn):
        states = await fork(state, [generate()] * k)
        state.metadata["all_completions"] = [
            s.output.completion for s in states if s.output
        ]
        return state

    return solve
"""

SOLVER_HELPER_YAML = """\
helpers:
  - name: forks.solve
    file: alpha/solver.py
    note: "the dead filter keeps every fork, which the router reads"
"""


def test_a_dead_check_in_a_recorded_solver_is_addressed_by_its_note(
    synthetic_repo, synthetic_registry
):
    write_files(
        synthetic_repo / "src/inspect_evals/alpha", {"solver.py": FORKING_SOLVER}
    )
    entry = synthetic_registry / "alpha.yaml"
    entry.write_text(entry.read_text().replace(" replace_dead_check,", ""))
    # the scorer's own dead check is the codemod's; the solver's is left
    assert drift_lines(synthetic_registry, synthetic_repo) == [
        "alpha: not covered by replace_dead_check: alpha/scorer.py:9, "
        "alpha/solver.py:10"
    ]

    entry.write_text(entry.read_text() + SOLVER_HELPER_YAML)

    assert drift_lines(synthetic_registry, synthetic_repo) == [
        "alpha: not covered by replace_dead_check: alpha/scorer.py:9"
    ]
    solver = synthetic_repo / "src/inspect_evals/alpha/solver.py"
    solver.write_text(solver.read_text().replace(" if s.output", ""))
    assert (
        "alpha: helper vanished: forks.solve (alpha/solver.py): the scan finds "
        "no empty check on the output in it"
    ) in drift_lines(synthetic_registry, synthetic_repo)


def test_a_scan_is_kept_until_a_file_of_the_package_changes(
    synthetic_repo, tmp_path, monkeypatch
):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    first = scan_repo(synthetic_repo)["alpha"]
    assert list((tmp_path / "cache/scan").glob("*.kept"))
    assert scan_repo(synthetic_repo)["alpha"] == first
    scorer = synthetic_repo / "src/inspect_evals/alpha/scorer.py"
    scorer.write_text(scorer.read_text().replace("not state.output:", "False:"))
    assert [f.text for f in scan_repo(synthetic_repo)["alpha"].dead_checks] == []


BETA_SCORER = """\
from inspect_ai.scorer import Score, accuracy, scorer

from inspect_evals.beta.util import check


@scorer(metrics=[accuracy()])
def beta_scorer():
    async def score(state, target):
        return Score(value=check(state.output.completion))

    return score
"""


def test_a_kept_scan_is_not_used_once_a_module_it_imports_appears(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    repo = tmp_path / "repo"
    write_files(repo, {"src/inspect_evals/beta/scorer.py": BETA_SCORER})
    assert scan_repo(repo)["beta"].flow_checks == []
    # the helper it imports appears, with an empty check on the output
    util = "def check(text):\n    if not text:\n        return 0\n    return 1\n"
    write_files(repo, {"src/inspect_evals/beta/util.py": util})
    [check] = scan_repo(repo)["beta"].flow_checks
    assert (check.file, check.function) == ("beta/util.py", "check")


def latin_1_scorer(synthetic_repo, coding_line: bool):
    """alpha/scorer.py in latin-1, with a PEP 263 coding line or without one."""
    path = synthetic_repo / "src/inspect_evals/alpha/scorer.py"
    text = path.read_text().replace("openai/gpt-4o", "openai/gpt-4o-café")
    if coding_line:
        text = "# -*- coding: latin-1 -*-\n" + text
    path.write_bytes(text.encode("latin-1"))


@pytest.mark.parametrize("coding_line", [True, False], ids=["coding", "no-coding"])
def test_a_file_that_is_not_utf8_is_reported_and_the_scan_goes_on(
    synthetic_repo, synthetic_registry, capsys, monkeypatch, tmp_path, coding_line
):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    latin_1_scorer(synthetic_repo, coding_line)
    alpha = scan_repo(synthetic_repo)["alpha"]
    [finding] = alpha.not_utf8
    assert finding.file == "alpha/scorer.py"
    assert finding.text.startswith(
        "src/inspect_evals/alpha/scorer.py is not UTF-8 (byte 0xe9 at offset "
    )
    assert finding.text.endswith(": convert it to UTF-8 to migrate this eval")
    assert ("; it declares latin-1)" in finding.text) == coding_line
    assert set(alpha.tasks) == {"alpha", "alpha_mcq"}  # the other files are read

    args = ["--registry", str(synthetic_registry), "--repo", str(synthetic_repo)]
    assert main(["registry", "scan", *args]) == 1
    out = capsys.readouterr().out
    assert f"alpha: not scanned: {finding.text}\n" in out
    assert "drift: alpha: not UTF-8: " in out
    assert main(["registry", "validate", *args]) == 2
    assert "is not UTF-8" in capsys.readouterr().err
    assert main(["registry", "scaffold", "alpha", *args]) == 0
    assert f"# scan: not scanned: {finding.text}\n" in capsys.readouterr().out
    assert main(["registry", "scan", "--format", "json", *args]) == 1
    import json

    data = json.loads(capsys.readouterr().out)
    assert data["evals"]["alpha"]["unparsable"] == [str(finding)]


def test_a_bom_and_crlf_scan_like_their_plain_twin(
    synthetic_repo, synthetic_registry, monkeypatch, tmp_path
):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    plain = scan_repo(synthetic_repo)["alpha"]
    for name in ("alpha.py", "scorer.py"):
        path = synthetic_repo / "src/inspect_evals/alpha" / name
        text = path.read_text().replace("\n", "\r\n")
        path.write_bytes("\ufeff".encode() + text.encode())
    assert scan_repo(synthetic_repo)["alpha"] == plain
    assert drift_lines(synthetic_registry, synthetic_repo) == []
