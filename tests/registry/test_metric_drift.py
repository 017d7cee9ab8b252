"""Drift when a routed score would lack what the eval's metrics read, and scaffold."""

import pytest

from empty_migrate.analysis.scan import scan_repo
from empty_migrate.cli.main import main
from empty_migrate.registry.drift import drift
from empty_migrate.registry.loader import load_registry
from tests.demo import entry
from tests.metric_evals import SUBSET_EVAL, SUBSET_PACKAGE


@pytest.fixture(autouse=True)
def own_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))


def subset_tree(demo, category="qa", scorer_settings="", value_metric=False):
    """The subset eval in a demo tree, with a registry entry routing its scorer."""
    text = SUBSET_EVAL
    if value_metric:
        text += CONFIDENCE_METRIC
        text = text.replace(
            "metrics=[accuracy(), human_solvable_accuracy()]",
            "metrics=[accuracy(), human_solvable_accuracy(), mean_confidence()]",
        )
    registry_entry = entry(
        SUBSET_PACKAGE,
        category=category,
        scorer="solvable_match",
        file="subset/scorer.py",
        settings="refusal_verdict: I\n" if category == "safety" else "",
        scorer_settings=scorer_settings,
    )
    demo.add_eval(SUBSET_PACKAGE, {"scorer.py": text}, registry_entry)
    return demo


CONFIDENCE_METRIC = """

@metric
def mean_confidence() -> Metric:
    def calculate(scores: list[SampleScore]) -> float:
        return sum(s.score.value["confidence"] for s in scores) / len(scores)

    return calculate
"""


def drift_lines(demo) -> list[str]:
    registry = load_registry(demo.registry)
    return [str(d) for d in drift(registry, scan_repo(demo.repo), demo.repo)]


def test_a_metric_on_a_metadata_subset_needs_its_key_copied(demo):
    subset_tree(demo)
    assert drift_lines(demo) == [
        "subset: metric input lost: solvable_match: subset/scorer.py:26: "
        "human_solvable_accuracy reads score.metadata.get('human_solvable'), which "
        "a routed score lacks: add human_solvable to copy_metadata "
        "(subset/scorer.py:39: solvable_match.score sets 'human_solvable' from "
        "state.metadata['human_solvable']), or, if the metric should leave routed "
        "scores out as it leaves out the eval's own non-answers, list "
        "human_solvable under absent_metadata with the reason"
    ]


@pytest.mark.parametrize(
    ("category", "scorer_settings"),
    [
        ("qa", "    copy_metadata: [human_solvable]\n"),
        ("qa", "    copy_metadata: true\n"),
        ("qa", "    verdict_metadata: {human_solvable: false}\n"),
        (
            "qa",
            "    absent_metadata:\n"
            "      human_solvable: the metric leaves routed scores out on purpose\n",
        ),
        ("agentic", ""),
    ],
    ids=["copied", "all-copied", "verdict-metadata", "absent", "router-writes-none"],
)
def test_the_key_carried_or_left_out_on_purpose_is_no_drift(
    demo, category, scorer_settings
):
    subset_tree(demo, category=category, scorer_settings=scorer_settings)
    assert drift_lines(demo) == []


def test_a_dict_verdict_must_hold_the_value_keys_a_metric_reads(demo):
    verdict = "    no_answer_verdict: {score: N}\n    copy_metadata: [human_solvable]\n"
    subset_tree(demo, scorer_settings=verdict, value_metric=True)
    assert drift_lines(demo) == [
        "subset: metric input lost: solvable_match: subset/scorer.py:60: "
        "mean_confidence reads score.value['confidence'], which the dict "
        "no_answer_verdict {'score': 'N'} lacks: add 'confidence' to it, with the "
        "value a non-answer has"
    ]


def test_the_migration_skips_an_eval_whose_routed_scores_would_lose_a_key(demo, capsys):
    subset_tree(demo)
    places = ["--repo", str(demo.repo), "--registry", str(demo.registry)]
    assert main([*places, "--eval", SUBSET_PACKAGE, "--dry-run"]) == 0
    err = capsys.readouterr().err
    assert "subset: skipped: code no longer matches its entry" in err
    assert (
        "metric input lost: solvable_match: subset/scorer.py:26: "
        "human_solvable_accuracy reads"
    ) in err
    assert main(["registry", "scan", *places]) == 1
    out = capsys.readouterr().out
    assert (
        "subset: metric reads score.metadata['human_solvable']: "
        "human_solvable_accuracy (subset/scorer.py:26)"
    ) in out


def test_scaffold_derives_copy_metadata_from_the_metrics(demo, capsys):
    subset_tree(demo)
    args = ["--registry", str(demo.registry), "--repo", str(demo.repo)]
    assert main(["registry", "scaffold", SUBSET_PACKAGE, *args]) == 0
    out = capsys.readouterr().out
    assert (
        "  - name: solvable_match\n"
        "    file: subset/scorer.py\n"
        "    construct: factory\n"
        "    copy_metadata: [human_solvable]\n"
        "    probe_metadata: {human_solvable: TODO}\n"
        "    # subset/scorer.py:26: human_solvable_accuracy reads "
        "score.metadata.get('human_solvable'); subset/scorer.py:39: "
        "solvable_match.score sets 'human_solvable' from "
        "state.metadata['human_solvable']\n"
    ) in out
