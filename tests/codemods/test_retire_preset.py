"""retire_preset: the preset helper becomes a shim only with its last callers.

The golden cases (``golden/retire_preset``) give the rewrite and when the
eval alone holds every caller; here, the unit: a caller migrated with the
others retires it, and one migrated alone does not.
"""

from empty_migrate.analysis.scan import EvalScan
from empty_migrate.codemods import eval_target, implementation
from empty_migrate.registry.loader import load_entry
from tests.codemods.golden import GOLDEN
from tests.demo import write_files

CODEMOD = implementation("retire_preset")
CASE = GOLDEN / "retire_preset" / "another_eval_still_calls_it"
SCORERS = "src/inspect_evals/utils/scorers.py"


def files_for(tmp_path, unit):
    tree = tmp_path / "tree"
    for path in (CASE / "before").rglob("*"):
        if path.is_file():
            relative = path.relative_to(CASE / "before").as_posix()
            write_files(tree, {relative: path.read_text()})
    entry, problems = load_entry(CASE / "registry.yaml")
    assert not problems, problems
    target = eval_target("demo", entry, EvalScan("demo"), tree, unit=unit)
    return CODEMOD.files(target)


def test_a_caller_alone_leaves_the_helper_to_the_others(tmp_path):
    assert files_for(tmp_path, ["demo"]) == []


def test_the_last_callers_together_retire_it(tmp_path):
    assert files_for(tmp_path, ["demo", "other"]) == [SCORERS]
