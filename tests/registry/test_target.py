"""The entries a migrated target keeps beside its evals, and their merge."""

import pytest

from empty_migrate.entries.in_target import entry_path, render_entry
from empty_migrate.registry.loader import EVALS_DIR, Registry, load_entry
from empty_migrate.registry.target import (
    registry_of,
    target_entry_files,
    unknown_evals,
)
from tests.demo import EVAL, manual_entry


@pytest.fixture
def cache(monkeypatch, tmp_path):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))


def test_every_registry_entry_round_trips_through_its_target_file(tmp_path, cache):
    for name, entry in Registry(EVALS_DIR).evals.items():
        written = tmp_path / entry_path(name)
        written.parent.mkdir(parents=True)
        written.write_text(render_entry(name, entry))
        assert load_entry(written) == (entry, []), name


def test_the_rendering_is_deterministic_and_starts_with_what_it_is():
    entry = Registry(EVALS_DIR).get("xstest")
    text = render_entry("xstest", entry)
    assert text == render_entry("xstest", entry)
    assert text.startswith("# The empty-response registry entry of xstest:")
    assert "`empty-migrate lint`" in text.split("\ncategory:")[0]
    assert "&" not in text and "*" not in text  # no anchors, no aliases


def test_entry_files_are_found_beside_each_eval(demo):
    demo.add_demo_eval()
    demo.write(
        {
            entry_path(EVAL): "x: 1\n",
            entry_path("utils"): "x: 1\n",  # not an eval
            "src/inspect_evals/other/eval.yaml": "title: x\n",
        }
    )
    assert target_entry_files(demo.repo) == {EVAL: demo.repo / entry_path(EVAL)}


def test_the_target_entry_wins_and_the_package_fills_the_rest(demo, cache):
    demo.add_demo_eval()
    demo.register("other", manual_entry("kept by a person", "x (other/a.py::a)"))
    today = "x (demo/scorer.py::demo_scorer)"
    target_entry = manual_entry("the target's own reason", today)
    demo.write({entry_path(EVAL): target_entry})
    merged = registry_of(demo.repo, demo.registry)
    assert merged.names == ["demo", "other"]
    assert merged.get(EVAL).codemods_reason == "the target's own reason"
    assert merged.get("other").codemods_reason == "kept by a person"


def test_without_a_checkout_the_seed_is_the_registry(demo):
    demo.register("other", manual_entry("kept by a person", "x (other/a.py:1)"))
    assert registry_of(None, demo.registry).names == ["other"]


def test_unknown_evals_are_the_packages_no_entry_names(demo):
    demo.add_demo_eval()
    demo.write({"src/inspect_evals/newbench/newbench.py": "X = 1\n"})
    demo.write({"src/inspect_evals/ownbench/ownbench.py": "X = 1\n"})
    demo.write({entry_path("ownbench"): manual_entry("mine", "x (ownbench/a.py:1)")})
    registry = registry_of(demo.repo, demo.registry)
    assert unknown_evals(registry, demo.repo) == ["newbench"]
