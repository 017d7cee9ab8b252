"""The codemod checks fail when they should, and show what differs as a diff."""

import re

import pytest

from empty_migrate.codemods import declaration
from empty_migrate.codemods.kit.base import Codemod, Skip
from tests.codemods.check import CodemodCheck


class Doubling(Codemod):
    """Doubles ``x = N`` once (a second run leaves ``x = 2N`` alone); skips ``!``."""

    def transform(self, text, path, target):
        if "!" in text:
            raise Skip("no exclamations")
        return text.replace("x = 1\n", "x = 2\n")


@pytest.fixture
def check():
    codemod = Doubling(declaration("wrap_router"))
    return CodemodCheck(codemod, target=lambda text: None)  # type: ignore[arg-type]


def test_a_match_passes(check):
    assert check.check_transformed("x = 1\n", "x = 2\n") == "x = 2\n"
    check.check_unchanged("y = 1\n")
    assert check.check_skipped("x = 1  # !\n", "exclamations") == "no exclamations"
    check.check_skipped("!\n", re.compile(r"^no \w+$"))


def test_a_wrong_expectation_shows_a_unified_diff(check):
    with pytest.raises(AssertionError) as raised:
        check.check_transformed("x = 1\ny = 1\n", "x = 3\ny = 1\n")
    message = str(raised.value)
    assert "--- expected/src/inspect_evals/demo/scorer.py" in message
    assert "+++ actual/src/inspect_evals/demo/scorer.py" in message
    assert "-x = 3\n+x = 2\n y = 1" in message


def test_a_change_where_none_is_expected_shows_it(check):
    with pytest.raises(AssertionError, match=r"(?s)-x = 1\n\+x = 2"):
        check.check_unchanged("x = 1\n")


def test_no_skip_or_another_reason_fails(check):
    with pytest.raises(pytest.fail.Exception, match=r"(?s)returned.*\+x = 2"):
        check.check_skipped("x = 1\n", "no exclamations")
    with pytest.raises(pytest.fail.Exception, match="changing:\nnothing"):
        check.check_skipped("y = 1\n", "no exclamations")
    with pytest.raises(AssertionError, match="'questions' not in 'no exclamations'"):
        check.check_skipped("!\n", "questions")


def test_a_second_run_that_changes_the_text_fails():
    codemod = Doubling(declaration("wrap_router"))
    codemod.transform = lambda text, path, target: text + "z\n"  # never stable
    check = CodemodCheck(codemod, target=lambda text: None)  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="a second run changed it"):
        check.check_transformed("x = 1\n", "x = 1\nz\n")
