"""``empty-migrate audit``: bad input is one line and exit 2; --compare runs nothing."""

import pytest

from empty_migrate.cli.exit_codes import ExitCode
from empty_migrate.cli.main import main
from tests.audit.small import demo_tree, judge_then_routed


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["audit"], "name --eval EVAL (repeatable) or --all"),
        (["audit", "--all", "--eval", "xstest"], "--eval and --all together"),
        (["audit", "--eval", "no_such_eval"], "unknown eval 'no_such_eval'"),
        (
            ["audit", "--eval", "xstest", "--repo", "/nonexistent"],
            "--repo /nonexistent: no such folder",
        ),
        (["audit", "--eval", "xstest", "--workers", "0"], "at least 1"),
        (
            ["audit", "--eval", "xstest", "--python", "/no/python"],
            "no such interpreter",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message, capsys, tmp_path):
    tree = demo_tree(tmp_path)
    if "--repo" not in args:
        args = [*args, "--repo", str(tree)]

    assert main(args) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_compare_reads_two_saved_audits(tmp_path, capsys):
    before, after = judge_then_routed(demo_tree(tmp_path))
    (tmp_path / "b.json").write_text(before.to_json())
    (tmp_path / "a.json").write_text(after.to_json())
    out = tmp_path / "compare.html"

    assert (
        main(
            [
                "audit",
                "--compare",
                *map(str, [tmp_path / "b.json", tmp_path / "a.json"]),
            ]
        )
        == 0
    )
    assert "-> wrong ('N', reason no_response)" in capsys.readouterr().out
    compare = ["audit", "--compare", str(tmp_path / "b.json"), str(tmp_path / "a.json")]
    assert main([*compare, "--format", "html", "--output", str(out)]) == 0
    assert "judge ! → wrong" in out.read_text()


def test_compare_with_a_file_that_is_not_an_audit_is_exit_2(tmp_path, capsys):
    (tmp_path / "x.json").write_text("{}")
    assert (
        main(
            ["audit", "--compare", str(tmp_path / "x.json")] * 1
            + [str(tmp_path / "x.json")]
        )
        == 2
    )
    assert "not an empty-migrate audit" in capsys.readouterr().err
