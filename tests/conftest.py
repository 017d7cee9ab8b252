"""Fixtures every test folder may use; the helpers behind them are modules.

``tests/demo.py`` holds the demo target tree and registry (the ``demo``
fixture), ``tests/outcomes.py`` one model output per outcome (the
``outcome_output`` fixture).
"""

import pytest
from inspect_ai.model import ModelOutput

from empty_migrate.runtime.router import Outcome
from tests.outcomes import OUTCOME_EXAMPLES


@pytest.fixture
def demo(tmp_path):
    """An empty demo target: ``tmp_path/repo`` and its registry ``tmp_path/registry``.

    A `tests.demo.DemoTree`; imported here, not above: ``tests/in_target``
    runs under this conftest in the target's environment, which needs none of it.
    """
    from tests.demo import DemoTree

    return DemoTree.create(tmp_path)


@pytest.fixture
def outcome_output():
    def build(outcome: Outcome) -> ModelOutput:
        return OUTCOME_EXAMPLES[Outcome(outcome)]()

    return build


def pytest_addoption(parser):
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite golden/*/.after files from the codemods' output, and list them; "
        "rewrite the README's codemod table from the declarations",
    )
