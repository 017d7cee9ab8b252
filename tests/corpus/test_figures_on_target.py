"""The figures the docs quote from the real 0.26.0 tree: as docs/figures.py computes."""

import pytest

from tests.docs.figures import figures

pytestmark = pytest.mark.corpus


def test_the_figures_of_the_real_tree(inspect_evals_tree, request):
    values = figures.compute({"corpus"}, figures.Context(tree=inspect_evals_tree))
    if request.config.getoption("--update-golden"):
        figures.write(values)
        return
    assert figures.stale(values) == []
