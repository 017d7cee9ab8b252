"""Citations by symbol: read out of prose, resolved in a tree, made from lines."""

import pytest

from empty_migrate.analysis.citations import (
    Citation,
    cited_file,
    cited_symbols,
    enclosing_symbol,
    line_citations,
    symbol_citations,
    symbols,
)
from tests.demo import write_files

MODULE = '''\
"""A module with one of everything a citation can name."""

import re

LIMIT = 3
PATTERN: re.Pattern[str] = re.compile(
    r"ANSWER: (.*)"
)


@scorer(metrics=[accuracy()])
def demo_scorer():
    async def score(state, target):
        if not state.output.completion:
            return Score(value=0)
        return Score(value=1)

    return score


class Judge:
    """A judge."""

    retries = 2

    @staticmethod
    def grade(text):
        return text

    class Rubric:
        def items(self):
            return []


@task
def demo():
    return Task(
        dataset=[],
        scorer=demo_scorer(),
    )


try:
    from fast import parse
except ImportError:
    def parse(text):
        return text

if __name__ == "__main__":
    print(LIMIT)
'''


def test_symbol_citations_are_read_out_of_prose():
    text = (
        "judge skipped (xstest/xstest.py::xstest_scorer); refusals reach "
        "b3/judge_defense.py::JudgeDefense.grade, see utils/aime_common.py::LIMIT."
    )
    assert symbol_citations(text) == [
        Citation("xstest/xstest.py", "xstest_scorer"),
        Citation("b3/judge_defense.py", "JudgeDefense.grade"),
        Citation("utils/aime_common.py", "LIMIT"),
    ]
    assert str(symbol_citations(text)[1]) == "b3/judge_defense.py::JudgeDefense.grade"


@pytest.mark.parametrize(
    "text",
    [
        "a file alone: xstest/xstest.py",
        "a test node id is no citation of the eval: tests/x.py:12",
        "an aside :: with colons",
        "a module path inspect_evals.xstest.xstest_scorer",
    ],
)
def test_what_is_no_symbol_citation(text):
    assert symbol_citations(text) == []


def test_line_citations_are_found_as_written():
    text = (
        "preset (xstest/xstest.py:99-106), max_tokens (line 108), "
        "see lines 3-4 and sad/README.md:168; a file xstest/xstest.py::xstest"
    )
    assert line_citations(text) == [
        "xstest/xstest.py:99-106",
        "line 108",
        "lines 3-4",
        "sad/README.md:168",
    ]
    assert line_citations("one line per eval, 3 lines, xstest.py::xstest") == []


def test_the_symbols_of_a_module_and_their_lines():
    found = {(s.name, s.first, s.last) for s in symbols(MODULE)}
    assert found == {
        ("LIMIT", 5, 5),
        ("PATTERN", 6, 8),
        ("demo_scorer", 11, 18),  # from its decorator
        ("Judge", 21, 32),
        ("Judge.retries", 24, 24),
        ("Judge.grade", 26, 28),
        ("Judge.Rubric", 30, 32),
        ("Judge.Rubric.items", 31, 32),
        ("demo", 35, 40),
        ("parse", 46, 47),  # defined in a try's handler
    }
    # a closure is a local, cited by the function that holds it
    assert "demo_scorer.score" not in {s.name for s in symbols(MODULE)}
    assert symbols("def broken(:\n") == ()


@pytest.mark.parametrize(
    ("first", "last", "symbol"),
    [
        (14, 15, "demo_scorer"),  # the empty check in its closure
        (11, 11, "demo_scorer"),  # the decorator
        (38, 38, "demo"),  # scorer= inside Task(...) of a @task
        (27, 28, "Judge.grade"),
        (24, 24, "Judge.retries"),
        (31, 31, "Judge.Rubric.items"),
        (22, 22, "Judge"),  # its docstring
        (7, 7, "PATTERN"),  # inside a constant written over lines
        (3, 3, None),  # an import
        (49, 50, None),  # the __main__ block
        (17, 21, None),  # over the end of one definition into the next
    ],
)
def test_lines_become_the_innermost_symbol_holding_them(first, last, symbol):
    assert enclosing_symbol(MODULE, first, last) == symbol


def test_a_citation_resolves_from_the_package_then_from_the_repository(tmp_path):
    write_files(
        tmp_path,
        {
            "src/inspect_evals/demo/scorer.py": MODULE,
            "tools/check.py": "NON_EVALS = {'docs'}\n",
        },
    )
    assert cited_file(tmp_path, "demo/scorer.py") == (
        tmp_path / "src/inspect_evals/demo/scorer.py"
    )
    assert cited_file(tmp_path, "tools/check.py") == tmp_path / "tools/check.py"
    assert cited_file(tmp_path, "demo/gone.py") is None
    defined = cited_symbols(tmp_path, Citation("demo/scorer.py", "Judge.grade"))
    assert defined is not None and "Judge.grade" in defined
    assert cited_symbols(tmp_path, Citation("tools/check.py", "x")) == ["NON_EVALS"]
    assert cited_symbols(tmp_path, Citation("demo/gone.py", "x")) is None
