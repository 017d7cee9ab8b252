"""The lint rules are declared once (`RULES`): docs/lint.md's table is generated."""

import re
from pathlib import Path

from empty_migrate.lint.rules import BY_CODE, RULES, readme_table

README = Path(__file__).parents[2] / "docs/lint.md"


def test_readme_table_is_the_rules(request):
    readme = README.read_text()
    start = readme.index(readme_table().partition("\n")[0])
    end = readme.index("\n\n", start)
    if request.config.getoption("--update-golden"):
        README.write_text(readme[:start] + readme_table() + readme[end:])
        return
    assert readme[start:end] == readme_table(), "expected:\n" + readme_table()


def test_every_code_is_declared_once_in_order():
    codes = [rule.code for rule in RULES]
    assert codes == sorted(set(codes)) and set(BY_CODE) == set(codes)


def test_every_code_the_rules_emit_is_declared():
    source = (Path(__file__).parents[2] / "src/empty_migrate/lint/rules.py").read_text()
    emitted = set(re.findall(r'"(EM\d{3})"', source))
    assert len(emitted) == len(RULES) and emitted == set(BY_CODE)
