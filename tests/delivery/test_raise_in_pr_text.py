"""Every PR text says what a raised route means for a run, and what to set."""

from empty_migrate.delivery.pull_request import RAISES_IN_A_RUN, render
from tests.delivery.campaigns import gamma_branch


def test_an_eval_s_pr_text_says_what_a_raise_means_for_a_run():
    text = render(gamma_branch(), None)
    assert f"### When the router raises\n\n{RAISES_IN_A_RUN}\n" in text
    assert "--retry-on-error=3 --fail-on-error=0.05" in text


def test_the_foundation_s_pr_text_says_it_too():
    foundation = gamma_branch(key="foundation", evals=(), results=(), on=None)
    text = render(foundation, None)
    assert f"### When the router raises\n\n{RAISES_IN_A_RUN}\n" in text


def test_a_template_of_its_own_sections_keeps_the_paragraph_in_the_description():
    template = "## Summary\n\nx\n\n## Description\n\n<!-- what and why -->\n"
    assert RAISES_IN_A_RUN in render(gamma_branch(), template)
