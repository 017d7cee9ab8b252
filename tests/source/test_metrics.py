"""The metric reader: what an eval's metrics and reducers read of a score."""

from empty_migrate.analysis.metrics import MetricReport, read_metrics
from empty_migrate.analysis.workspace import Workspace
from tests.demo import write_files
from tests.metric_evals import SUBSET_FILE, SUBSET_PACKAGE, write_subset_eval

HEADER = """\
from inspect_ai import Epochs, Task, task
from inspect_ai.scorer import Score, accuracy, grouped, metric, score_reducer, scorer
"""


def report_of(tmp_path, files: dict[str, str], name: str = "ev") -> MetricReport:
    write_files(tmp_path / "src/inspect_evals", files)
    return read_metrics(Workspace(tmp_path), name)


def reads(report: MetricReport) -> set[tuple[str, str, str | None, str]]:
    return {
        (r.reader, r.field, r.key, r.form)
        for reader in report.readers.values()
        for r in reader.reads
    }


def test_a_metadata_subscript_through_names_and_or(tmp_path):
    report = report_of(
        tmp_path,
        {
            "ev/metrics.py": HEADER
            + """
@metric
def by_category():
    def calc(scores):
        for item in scores:
            meta = item.score.metadata or {}
            group = meta["category"]
        return 0.0
    return calc
"""
        },
    )
    assert reads(report) == {("by_category", "metadata", "category", "subscript")}
    (read,) = report.readers[("ev/metrics.py", "by_category")].reads
    assert str(read) == (
        "ev/metrics.py:9: by_category reads score.metadata['category']"
    )


def test_get_in_and_a_loop_over_constant_keys(tmp_path):
    report = report_of(
        tmp_path,
        {
            "ev/metrics.py": HEADER
            + """
PARAMS = ["length", "position"]

@metric
def grid():
    def calc(scores: list[SampleScore]):
        first = scores[0].score.metadata
        if "grid" in first:
            pass
        for key in PARAMS:
            first.get(key)
        return 0.0
    return calc
"""
        },
    )
    assert reads(report) == {
        ("grid", "metadata", "grid", "in"),
        ("grid", "metadata", "length", "get"),
        ("grid", "metadata", "position", "get"),
    }


def test_grouped_reads_the_sample_metadata_not_the_score(tmp_path):
    report = report_of(
        tmp_path,
        {
            "ev/metrics.py": HEADER
            + """
@metric
def per_group():
    return grouped(accuracy(), "difficulty")

@metric
def by_sample():
    def calc(scores):
        return [s.sample_metadata["level"] for s in scores]
    return calc
"""
        },
    )
    assert reads(report) == {("by_sample", "sample_metadata", "level", "subscript")}


def test_a_reducer_reading_the_answer_and_a_dict_value_key(tmp_path):
    report = report_of(
        tmp_path,
        {
            "ev/reducers.py": HEADER
            + """
@score_reducer
def same_answer():
    def reduce(scores: list[Score]) -> Score:
        answers = {score.answer for score in scores}
        best = max(score.value["score"] for score in scores)
        return Score(value=best, metadata={"attempts": len(answers)})
    return reduce

@metric
def confidence():
    def calc(scores):
        return sum(s.score.as_dict()["confidence"] for s in scores)
    return calc
"""
        },
    )
    assert reads(report) == {
        ("same_answer", "answer", None, "subscript"),
        ("same_answer", "value", "score", "subscript"),
        ("confidence", "value", "confidence", "subscript"),
    }
    assert report.written_by_readers() == {"attempts"}


def test_scores_are_followed_into_helpers_and_composed_metrics(tmp_path):
    report = report_of(
        tmp_path,
        {
            "ev/helpers.py": """
def task_of(sample_score):
    return sample_score.score.metadata.get("task")
""",
            "ev/metrics.py": HEADER
            + """
from collections import defaultdict
from inspect_evals.ev.helpers import task_of

@metric
def relation_f1():
    def calc(scores):
        return [s.score.metadata["prediction"] for s in scores]
    return calc

@metric
def by_task():
    def calc(scores):
        groups = defaultdict(list)
        for s in scores:
            groups[task_of(s)].append(s)
        for name, members in groups.items():
            for one in members:
                one.score.value["f1"]
        return relation_f1()(scores)
    return calc
""",
        },
    )
    assert ("by_task", "metadata", "task", "get") in reads(report)
    assert ("by_task", "value", "f1", "subscript") in reads(report)
    found = report.reads_for(("ev/metrics.py", "any_scorer"), False, [None])
    assert found == []  # no scorer or task lists them
    assert report.readers[("ev/metrics.py", "by_task")].uses == {
        ("ev/metrics.py", "relation_f1")
    }


def test_uses_sources_and_needs_of_the_subset_eval(tmp_path):
    write_subset_eval(tmp_path)
    report = read_metrics(Workspace(tmp_path), SUBSET_PACKAGE)
    scorer = (SUBSET_FILE, "solvable_match")
    assert report.scorer_readers[scorer] == {(SUBSET_FILE, "human_solvable_accuracy")}
    assert [str(r) for r in report.reads_for(scorer, True, [None])] == [
        "subset/scorer.py:26: human_solvable_accuracy reads "
        "score.metadata.get('human_solvable')"
    ]
    (need,) = report.metadata_needs(scorer, True, ["subset"])
    assert need.key == "human_solvable"
    assert str(need.copied_from) == (
        "subset/scorer.py:39: solvable_match.score sets 'human_solvable' from "
        "state.metadata['human_solvable']"
    )
    assert report.unattached() == []


def test_a_key_the_scorer_computes_is_not_copied_from_the_sample(tmp_path):
    report = report_of(
        tmp_path,
        {
            "ev/scorer.py": HEADER
            + """
@metric
def by_verdict():
    def calc(scores):
        return [s.score.metadata["verdict"] for s in scores]
    return calc

@scorer(metrics=[by_verdict()])
def judge():
    async def score(state, target):
        metadata = dict(state.metadata)
        metadata["verdict"] = grade(state)
        return Score(value=1, metadata=metadata)
    return score
"""
        },
    )
    (need,) = report.metadata_needs(("ev/scorer.py", "judge"), True, [None])
    assert need.copied_from is not None  # the whole sample metadata is copied too
    assert [(s.key, s.sample_key) for s in need.sources] == [
        (None, None),
        ("verdict", None),
    ]


def test_metrics_a_task_or_epochs_list_count_for_its_scorers(tmp_path):
    report = report_of(
        tmp_path,
        {
            "ev/ev.py": HEADER
            + """
@metric
def per_topic():
    def calc(scores):
        return [s.score.metadata["topic"] for s in scores]
    return calc

@score_reducer(name="keep_first")
def keep_first():
    def reduce(scores):
        return scores[0]
    return reduce

def build_metrics():
    found = []
    found.append(per_topic())
    return found

@task
def ev():
    chosen = build_metrics()
    epochs = Epochs(2, "keep_first")
    return Task(dataset=[], scorer=choice(), metrics=chosen, epochs=epochs)
"""
        },
    )
    assert report.task_readers["ev"] == {
        ("ev/ev.py", "per_topic"),
        ("ev/ev.py", "keep_first"),
    }
    task_scorer = report.reads_for(("ev/ev.py", "ev"), False, ["ev"])
    assert [(r.reader, r.key) for r in task_scorer] == [("per_topic", "topic")]
