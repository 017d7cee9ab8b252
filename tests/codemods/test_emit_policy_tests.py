"""emit_policy_tests: the fixtures module: the probe and the fixture library's outputs.

The emitted tests themselves run against the real target (`pytest -m corpus`,
tests/corpus/test_emitted_policy_tests.py); here, what they are made of.
"""

import ast
import types

from inspect_ai.model import ModelOutput

from empty_migrate.codemods import implementation
from empty_migrate.codemods.emit_policy_tests import rewrite as emit
from empty_migrate.codemods.kit.generated import module_source
from empty_migrate.entries import outcome_data
from empty_migrate.runtime.policy import Outcome
from empty_migrate.testing.provider_outputs import OUTCOME_EXAMPLES, provider_output
from tests.demo import scorer_target

REGISTRY = """\
category: qa
polarity: neutral
output: state.output
judge: none
today: "empty completion -> INCORRECT (demo/scorer.py::demo_scorer)"
codemods: [wrap_router]
scorers:
  - name: demo_scorer
    file: demo/scorer.py
    construct: factory
"""


def fixtures_module() -> types.ModuleType:
    """The generated fixtures module, imported from its text."""
    module = types.ModuleType("empty_response")
    exec(compile(emit.fixtures_text(), "empty_response.py", "exec"), vars(module))
    return module


def test_every_outcome_output_is_the_fixture_librarys_build():
    module = fixtures_module()
    for outcome, fixture in OUTCOME_EXAMPLES.items():
        built = module.outcome_output(str(outcome))
        assert isinstance(built, ModelOutput)
        expected = provider_output(fixture).output
        assert without_ids(built) == without_ids(expected), outcome
    assert set(module.OUTPUTS) == {str(outcome) for outcome in Outcome}


def test_the_fixtures_module_is_the_same_on_every_run():
    before = emit.fixtures_text()
    emit.fixtures_text.cache_clear()
    assert emit.fixtures_text() == before


def without_ids(output: ModelOutput) -> dict:
    """The output's fields; its messages' ids are random on every build."""
    return output.model_dump(exclude={"choices": {"__all__": {"message": {"id"}}}})


def test_the_fixtures_module_holds_the_probe_itself():
    text = emit.fixtures_text()
    probe = ast.parse(module_source("empty_migrate.runtime.probe"))
    defined = {n.name for n in probe.body if hasattr(n, "name")}
    generated = {n.name for n in ast.parse(text).body if hasattr(n, "name")}
    assert defined <= generated
    assert "import empty_migrate" not in text
    assert "from empty_migrate" not in text


def test_the_module_holds_the_committed_outputs(monkeypatch):
    # the outputs come from outcome_data.json (tests/testing keeps it current),
    # so a change there is what changes the module
    before = emit.fixtures_text()
    data = outcome_data._data()
    changed = {**data["outcomes"]["empty"], "fixture": "google_no_candidates"}
    monkeypatch.setitem(data["outcomes"], "empty", changed)
    emit.fixtures_text.cache_clear()
    try:
        assert emit.fixtures_text() != before
        assert "# google_no_candidates" in emit.fixtures_text()
    finally:
        emit.fixtures_text.cache_clear()


def test_no_test_until_the_evals_scoring_is_migrated(tmp_path):
    target = scorer_target(tmp_path, "def demo_scorer():\n    pass\n", REGISTRY)
    assert implementation("emit_policy_tests").files(target) == []
