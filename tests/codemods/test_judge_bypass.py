"""judge_bypass shapes a golden case cannot hold: the ones it must skip.

A golden case asserts a rewrite or no change; a skip leaves the whole eval
unchanged and reports why, so each skipped shape is checked here through
`run_file` (and once through `migrate_eval`), with the exact reason.
"""

import textwrap
from pathlib import Path

from empty_migrate.codemods import eval_target, implementation
from empty_migrate.codemods.kit.base import EvalTarget
from empty_migrate.pipeline.runner import (
    FileResult,
    Formatter,
    Workspace,
    migrate_eval,
    run_file,
)
from empty_migrate.registry.loader import load_entry
from empty_migrate.source.scan import scan_eval
from tests.codemods.golden import RUFF_CONFIG

JUDGE_BYPASS = implementation("judge_bypass")
MODULE = "src/inspect_evals/demo/scorer.py"

REGISTRY = """\
category: {category}
polarity: neutral
{extra}output: {output}
judge: {judge}
today: "empty answers reach the judge (demo/scorer.py:1)"
codemods: [{codemods}]
tasks:
  demo: {{}}
scorers:
  - name: {scorer}
    file: demo/scorer.py
    construct: {construct}
{scorer_extra}"""


def make_target(tmp_path: Path, module: str, **registry: str) -> EvalTarget:
    values = {
        "category": "model_graded",
        "extra": "",
        "output": "state.output",
        "judge": "scorer",
        "codemods": "wrap_router, judge_bypass",
        "scorer": "demo_scorer",
        "construct": "factory",
        "scorer_extra": "",
    }
    values.update(registry)
    repo = tmp_path / "repo"
    files = {
        "pyproject.toml": RUFF_CONFIG,
        "src/inspect_evals/__init__.py": "",
        "src/inspect_evals/demo/__init__.py": "",
        MODULE: textwrap.dedent(module),
    }
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)
    (tmp_path / "demo.yaml").write_text(REGISTRY.format(**values))
    entry, problems = load_entry(tmp_path / "demo.yaml")
    assert entry is not None and not problems, problems
    return eval_target("demo", entry, scan_eval(repo, "demo"), repo, "2026-11-29")


def run(target: EvalTarget) -> list[FileResult]:
    return [
        run_file(
            (target.repo / path).read_text(),
            path,
            [JUDGE_BYPASS],
            target,
            Formatter(target.repo),
        )
        for path in JUDGE_BYPASS.files(target)
    ]


MULTI_TURN = """\
from inspect_ai import Task, task
from inspect_ai.model import ChatMessageUser, get_model
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver


@task
def demo() -> Task:
    return Task(dataset=[], solver=persuade(), scorer=demo_scorer())


@solver
def persuade(turns: int = 3) -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        evaluator = get_model(role="grader")
        for _ in range(turns):
            state = await generate(state)
            rating = await evaluator.generate(f"Rate 0-10: {state.output.completion}")
            state.metadata.setdefault("ratings", []).append(rating.completion)
            state.messages.append(ChatMessageUser(content="Try to convince me."))
        return state

    return solve


@scorer(metrics=[mean()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        ratings = [float(r) for r in state.metadata["ratings"]]
        return Score(value=sum(ratings) / len(ratings))

    return score
"""

MULTI_TURN_REASON = (
    "judge runs in the solver persuade at demo/scorer.py:18 (the judge call is "
    "in a loop: multi-turn): guard it by hand"
)


def test_multi_turn_solver_is_skipped(tmp_path):
    target = make_target(tmp_path, MULTI_TURN, judge="solver", output="last_assistant")

    [result] = run(target)

    assert result.status == "skipped"
    assert result.reason == MULTI_TURN_REASON
    assert result.after == result.before


def test_multi_turn_solver_skips_the_whole_eval(tmp_path):
    target = make_target(tmp_path, MULTI_TURN, judge="solver", output="last_assistant")

    result = migrate_eval(
        target, [JUDGE_BYPASS], Workspace(target.repo), Formatter(target.repo)
    )

    assert result.status == "skipped"
    assert result.reason == f"{MODULE}: {MULTI_TURN_REASON}"


ANNOTATE = """\
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver
{imports}

@solver
def annotate() -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.user_prompt.text = f"Grade this answer: {{state.output.completion}}"
        return await generate(state)

    return solve


@scorer(metrics=[mean()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=float("GRADE: C" in state.output.completion))

    return score
"""


def test_judge_reply_replacing_the_read_output_is_skipped(tmp_path):
    target = make_target(tmp_path, ANNOTATE.format(imports=""), judge="solver")

    [result] = run(target)

    assert result.status == "skipped"
    assert result.reason == (
        "judge runs in the solver annotate at demo/scorer.py:9 (the judge's reply "
        "replaces the model's output, which the registry reads from state.output; "
        "save it with output: store:KEY): guard it by hand"
    )


def test_metadata_output_is_skipped(tmp_path):
    module = ANNOTATE.format(imports="")
    target = make_target(tmp_path, module, judge="solver", output="metadata:answer")

    [result] = run(target)

    assert result.status == "skipped"
    assert "reads the model's output from metadata:answer" in (result.reason or "")


def test_classify_bound_to_another_function_is_skipped(tmp_path):
    module = ANNOTATE.format(imports="from demo_lib import classify\n")
    target = make_target(tmp_path, module, judge="solver", output="store:mut_output")

    [result] = run(target)

    assert result.status == "skipped"
    assert result.reason == "classify is already bound in this module: guard by hand"


def test_unwrapped_scorer_with_solver_judge_is_skipped(tmp_path):
    module = ANNOTATE.format(imports="")
    target = make_target(
        tmp_path,
        module,
        judge="solver",
        output="store:mut_output",
        codemods="judge_bypass",
    )

    [result] = run(target)

    assert result.status == "skipped"
    assert result.reason == (
        "demo_scorer reads the verdict of a judge in a solver, but wrap_router "
        "does not wrap it: guard the solver by hand"
    )


def test_solver_judge_the_codemod_cannot_find_is_skipped(tmp_path):
    module = """\
    from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
    from inspect_ai.solver import TaskState


    @scorer(metrics=[mean()])
    def demo_scorer() -> Scorer:
        async def score(state: TaskState, target: Target) -> Score:
            return Score(value=float(state.metadata["rating"]))

        return score
    """
    target = make_target(tmp_path, module, judge="solver")

    [result] = run(target)

    assert result.status == "skipped"
    assert result.reason == (
        "the registry says the judge runs in a solver, but no @solver of demo "
        "calls one: guard it by hand"
    )


UNWRAPPED = """\
from inspect_ai import Task, task
from inspect_ai.model import get_model
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import TaskState, generate


@task
def demo() -> Task:
    return Task(dataset=[], solver=generate(), scorer=demo_scorer())


@scorer(metrics=[mean()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        grader = get_model(role="grader")
        reply = await grader.generate(state.output.completion)
        return Score(value=float(reply.completion == "1"))

    return score
"""


def test_judge_in_a_scorer_left_unwrapped_is_skipped(tmp_path):
    target = make_target(
        tmp_path,
        UNWRAPPED,
        scorer_extra="    rewrite: false\n    note: needs a human\n",
    )

    [result] = run(target)

    assert result.status == "skipped"
    assert result.reason == (
        "judge call get_model() at demo/scorer.py:15 runs in the scorer "
        "demo_scorer (demo/scorer.py), which wrap_router does not wrap: route it "
        "by hand"
    )


def test_model_graded_task_built_by_a_helper_is_skipped(tmp_path):
    module = """\
    from inspect_ai import Task, task
    from inspect_ai.scorer import model_graded_fact
    from inspect_ai.solver import generate


    @task
    def demo() -> Task:
        return open_ended_task()


    def open_ended_task() -> Task:
        return Task(dataset=[], solver=generate(), scorer=model_graded_fact())
    """
    target = make_target(tmp_path, module, scorer="demo", construct="task_scorer")

    [result] = run(target)

    assert result.status == "skipped"
    assert result.reason == (
        "judge call model_graded_fact() at demo/scorer.py:12 runs in the task demo "
        "(demo/scorer.py), outside its Task(scorer=...): route it by hand"
    )


COUNTERPART = """\
from inspect_ai import Task, task
from inspect_ai.model import get_model
from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver


@task
def demo() -> Task:
    return Task(dataset=[], solver=phishing_dialogue(), scorer=demo_scorer())


@solver
def phishing_dialogue() -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        other = get_model(role="{role}")
        state = await generate(state)
        reply = await other.generate(state.output.completion)
        state.metadata["reply"] = reply.completion
        return state

    return solve


@scorer(metrics=[mean()])
def demo_scorer() -> Scorer:
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=float("password" in state.metadata["reply"]))

    return score
"""


def test_counterpart_model_in_a_solver_is_not_a_judge(tmp_path):
    target = make_target(tmp_path, COUNTERPART.format(role="victim"))

    assert [r.status for r in run(target)] == ["unchanged"]


def test_grader_in_a_solver_the_registry_does_not_name_is_skipped(tmp_path):
    target = make_target(tmp_path, COUNTERPART.format(role="grader"))

    [result] = run(target)

    assert result.status == "skipped"
    assert result.reason == (
        "judge call get_model() at demo/scorer.py:15 runs in the solver "
        "phishing_dialogue (demo/scorer.py), and the registry says no judge runs "
        "in a solver: route it by hand"
    )


def test_eval_not_listing_judge_bypass_touches_nothing(tmp_path):
    target = make_target(tmp_path, UNWRAPPED, codemods="wrap_router")

    assert JUDGE_BYPASS.files(target) == []


def test_guarded_annotate_solver_never_calls_the_judge_on_a_non_answer(tmp_path):
    """Run the migrated golden annotate shape in a real eval, judge = the MUT."""
    from inspect_ai import Task, eval
    from inspect_ai.dataset import Sample
    from inspect_ai.event import ModelEvent
    from inspect_ai.model import ModelOutput
    from inspect_ai.solver import generate

    from empty_migrate.testing.models import scripted_model
    from tests.codemods.golden import GOLDEN, build_repo, discover
    from tests.conftest import OUTCOME_EXAMPLES

    name = "annotate_solver_store_output"
    [case] = [c for c in discover() if c.id == f"judge_bypass/{name}"]
    repo = build_repo(case, tmp_path)
    entry, _ = load_entry(GOLDEN / "judge_bypass" / f"{name}.yaml")
    target = eval_target("demo", entry, scan_eval(repo, "demo"), repo, "2026-11-29")
    codemods = [implementation("wrap_router"), JUDGE_BYPASS]
    migrated = migrate_eval(target, codemods, Workspace(repo), Formatter(repo))
    assert migrated.status == "rewritten", migrated.reason
    [file] = migrated.files
    module_path = tmp_path / "migrated_annotate.py"
    module_path.write_text(
        file.after.replace(
            "inspect_evals.utils.empty_response", "empty_migrate.runtime.router"
        )
    )
    namespace: dict = {}
    exec(compile(module_path.read_text(), str(module_path), "exec"), namespace)

    outputs = [
        OUTCOME_EXAMPLES["empty"](),
        OUTCOME_EXAMPLES["refused"](),
        ModelOutput.from_content("mockllm/model", "Step one: ..."),
        ModelOutput.from_content("mockllm/model", "score: 0"),
    ]
    task = Task(
        dataset=[Sample(id=i, input="How do I pick a lock?") for i in (1, 2, 3)],
        solver=[generate(), namespace["rate_answer"]()],
        scorer=namespace["demo_scorer"](),
    )
    [log] = eval(
        task,
        model=scripted_model(outputs),
        log_dir=str(tmp_path / "logs"),
        display="none",
        max_samples=1,
    )

    samples = sorted(log.samples or [], key=lambda s: s.id)
    calls = [sum(isinstance(e, ModelEvent) for e in s.events) for s in samples]
    scores = [next(iter(s.scores.values())) for s in samples if s.scores]
    assert calls == [1, 1, 2]
    assert [s.value for s in scores] == [1.0, 1.0, 0.0]
    assert [s.reason for s in scores] == ["no_response", "refusal", None]


def test_judge_model_passed_to_an_unwrapped_scorer_is_skipped(tmp_path):
    module = """\
    from inspect_ai import Task, task
    from inspect_ai.model import Model, get_model
    from inspect_ai.scorer import Score, Scorer, Target, mean, scorer
    from inspect_ai.solver import TaskState, generate


    @task
    def demo(grader_model: str = "openai/gpt-4o") -> Task:
        grader = get_model(grader_model)
        return Task(dataset=[], solver=generate(), scorer=demo_scorer(grader))


    @scorer(metrics=[mean()])
    def demo_scorer(grader: Model) -> Scorer:
        async def score(state: TaskState, target: Target) -> Score:
            reply = await grader.generate(state.output.completion)
            return Score(value=float(reply.completion == "1"))

        return score
    """
    target = make_target(tmp_path, module, codemods="judge_bypass")

    [result] = run(target)

    assert result.status == "skipped"
    assert result.reason == (
        "judge call .generate() at demo/scorer.py:16 runs in the scorer "
        "demo_scorer (demo/scorer.py), which wrap_router does not wrap: route it "
        "by hand"
    )


def test_test_code_inside_the_package_is_not_an_eval_path(tmp_path):
    test_module = tmp_path / "repo/src/inspect_evals/demo/tests/test_scorer.py"
    test_module.parent.mkdir(parents=True)
    test_module.write_text(
        "from inspect_ai.model import get_model\n\n\n"
        "def test_grader():\n"
        "    assert get_model('mockllm/model', role='grader')\n"
    )
    target = make_target(tmp_path, UNWRAPPED)

    assert [r.status for r in run(target)] == ["unchanged", "unchanged"]
