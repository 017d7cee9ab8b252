"""bump_task_version: what the golden cases do not show.

The versions it cannot read (no version line, two, one not ``N-X``) are
golden skip cases: ``golden/bump_task_version/*/expected.skip``.
"""

from tests.codemods.check import CodemodCheck

EVAL_YAML = "src/inspect_evals/demo/eval.yaml"


def test_bump_ignores_a_nested_version_key(demo):
    target = demo.add_demo_eval().target(changed_by=["wrap_router"])
    check = CodemodCheck("bump_task_version", lambda _: target, path=EVAL_YAML)
    # no second run: what keeps a rerun from bumping again is the changelog entry
    check.check_transformed(
        'version: "3-D"\ntasks:\n  - name: demo\n    version: "9-Z"\n',
        'version: "4-D"\ntasks:\n  - name: demo\n    version: "9-Z"\n',
        again=False,
    )
