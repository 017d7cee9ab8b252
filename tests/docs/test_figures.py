"""The docs quote only what docs/figures.py computes; the README's size."""

import re
import sys

import pytest

from tests.docs.figures import ROOT, figures


@pytest.fixture(scope="module")
def cheap():
    """Every cheap figure, computed (about 0.3 s).

    argparse words its help differently from one Python to the next (3.13 lists
    an option's metavar once): the reference is generated on 3.11, the lowest
    Python the package supports, and compared there.
    """
    values = figures.compute({"cheap"}, figures.Context())
    if sys.version_info[:2] != (3, 11):
        del values["cli-reference"]
    return values


def test_every_cheap_figure_the_docs_quote_is_what_the_script_computes(cheap, request):
    if request.config.getoption("--update-golden"):
        figures.write(cheap)
        return
    assert figures.stale(cheap) == []


def test_every_figure_is_quoted_and_every_quote_names_a_figure():
    everywhere = figures.quoted({"cheap", "slow", "corpus"}).values()
    assert {name for names in everywhere for name in names} == set(figures.FIGURES)


def test_a_changed_figure_is_reported_stale(cheap, tmp_path, monkeypatch):
    doc = tmp_path / "doc.md"
    doc.write_text("<!--f:released-texts-->1 router and 2 helpers texts<!--/f-->.\n")
    monkeypatch.setattr(figures, "ROOT", tmp_path)
    monkeypatch.setattr(figures, "DOCUMENTS", ["doc.md"])
    [problem] = figures.stale(cheap)
    assert problem.startswith("doc.md: figure 'released-texts' is stale")
    figures.write(cheap)
    assert figures.stale(cheap) == []
    assert cheap["released-texts"] in doc.read_text()


def test_the_readme_is_read_in_ten_minutes():
    words = len((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert words <= 3000, f"README.md has {words} words (wc -w); the limit is 3,000"


@pytest.mark.slow  # inspect_ai's command line takes seconds to import
def test_the_pr_paragraph_on_raises_names_inspect_s_real_options(cheap):
    from inspect_ai._cli.eval import eval_command  # the options `inspect eval` takes

    options = {o for p in eval_command.params for o in p.opts}
    text = cheap["raise-advice"]
    for option in re.findall(r"--[a-z-]+(?==)", text):
        assert option in options, option


@pytest.mark.slow
def test_the_figures_of_the_committed_logs(request):
    values = figures.compute({"slow"}, figures.Context())
    if request.config.getoption("--update-golden"):
        figures.write(values)
        return
    assert figures.stale(values) == []
