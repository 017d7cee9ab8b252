"""judge_bypass: what the golden cases do not show.

Each shape it must skip is a golden skip case (``golden/judge_bypass/*.skip``),
with the exact reason. Here: a skip seen through `migrate_eval` (the whole
eval stays as it was), which files it touches, and the migrated annotate
solver run in a real eval.
"""

from empty_migrate.codemods import implementation
from empty_migrate.pipeline.runner import (
    FileResult,
    Formatter,
    Workspace,
    migrate_eval,
    run_file,
)
from tests.codemods.golden import GoldenCase, build_repo, discover
from tests.demo import entry

JUDGE_BYPASS = implementation("judge_bypass")

UNWRAPPED = """from inspect_ai import Task, task
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
REGISTRY = entry(
    category="model_graded",
    judge="scorer",
    codemods=["wrap_router", "judge_bypass"],
    today="empty answers reach the judge (demo/scorer.py::demo_scorer)",
)


def golden_case(demo, name: str) -> GoldenCase:
    """A golden case's tree, written as the demo tree, to run another way."""
    [case] = [c for c in discover() if c.id == f"judge_bypass/{name}"]
    build_repo(case, demo.root)
    demo.register("demo", case.registry.read_text())
    return case


def run(target) -> list[FileResult]:
    """judge_bypass on each file it touches, as the runner runs it."""
    formatter = Formatter(target.workspace.repo)
    return [
        run_file(target.read(path), path, [JUDGE_BYPASS], target, formatter)
        for path in JUDGE_BYPASS.files(target)
    ]


def test_a_skipped_shape_skips_the_whole_eval_with_its_reason(demo):
    case = golden_case(demo, "multi_turn_solver_judge")

    result = migrate_eval(
        demo.target(), [JUDGE_BYPASS], Workspace(demo.repo), Formatter(demo.repo)
    )

    assert result.status == "skipped"
    assert result.reason == case.skip
    assert [f.after for f in result.files] == [f.before for f in result.files]


def test_eval_not_listing_judge_bypass_touches_nothing(demo):
    demo.add_eval(
        "demo",
        {"scorer.py": UNWRAPPED},
        REGISTRY.replace("[wrap_router, judge_bypass]", "[wrap_router]"),
    )
    assert JUDGE_BYPASS.files(demo.target()) == []


def test_test_code_inside_the_package_is_not_an_eval_path(demo):
    test_module = (
        "from inspect_ai.model import get_model\n\n\n"
        "def test_grader():\n"
        "    assert get_model('mockllm/model', role='grader')\n"
    )
    demo.add_eval(
        "demo",
        {"scorer.py": UNWRAPPED, "tests/test_scorer.py": test_module},
        REGISTRY,
    )

    assert [r.status for r in run(demo.target())] == ["unchanged", "unchanged"]


def test_guarded_annotate_solver_never_calls_the_judge_on_a_non_answer(demo, tmp_path):
    """Run the migrated golden annotate shape in a real eval, judge = the MUT."""
    from inspect_ai import Task, eval
    from inspect_ai.dataset import Sample
    from inspect_ai.event import ModelEvent
    from inspect_ai.model import ModelOutput
    from inspect_ai.solver import generate

    from empty_migrate.testing.models import scripted_model
    from tests.outcomes import OUTCOME_EXAMPLES

    golden_case(demo, "annotate_solver_store_output")
    codemods = [implementation("wrap_router"), JUDGE_BYPASS]
    repo = demo.repo
    migrated = migrate_eval(demo.target(), codemods, Workspace(repo), Formatter(repo))
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
