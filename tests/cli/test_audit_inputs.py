"""``audit``'s own inputs: a saved audit is checked when read, ``--output`` at once.

A saved audit (``--compare A B``) is read bounded in size and nesting and
checked field by field against the audit's own classes: a bad one is one line
naming the file and the field, exit 2. An ``--output`` that names a folder or a
symbolic link is refused, with what to pass, before anything runs.
"""

import json

import pytest

from empty_migrate.audit import matrix
from empty_migrate.audit.matrix import Audit, read_audit
from empty_migrate.cli.exit_codes import ExitCode
from empty_migrate.cli.main import main
from empty_migrate.logs.bounds import json_depth
from empty_migrate.target.files import WriteError, error_text
from tests.cli.hostile import saved_audit

FORMATS = ["text", "html", "json"]


def compare(tmp_path, capsys, after: str, *more: str) -> tuple[int, str, str]:
    """``audit --compare`` of a good saved audit with `after` (the file's text)."""
    (tmp_path / "before.json").write_text(saved_audit())
    (tmp_path / "after.json").write_text(after)
    args = [
        "audit",
        "--compare",
        *(str(tmp_path / f) for f in ("before.json", "after.json")),
    ]
    code = main([*args, *more])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_good_saved_audit_is_compared(fmt, tmp_path, capsys):
    code, out, err = compare(tmp_path, capsys, saved_audit(), "--format", fmt)

    assert (code, err) == (ExitCode.OK, "")
    assert "demo" in out


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"route": "no_such_route"}, "rows[0].route: 'no_such_route' is not a route"),
        ({"judge_calls": "x"}, "rows[0].judge_calls: 'x' is not a count"),
        ({"judge_calls": True}, "rows[0].judge_calls: True is not a count"),
        ({"faults": 5}, "rows[0].faults: 5 is not a list of texts"),
        (
            {"faults": ["no_such_fault"]},
            "rows[0].faults: 'no_such_fault' is not a fault",
        ),
        ({"eval": None}, "rows[0].eval: None is not a text"),
        ({"unscored": "no"}, "rows[0].unscored: 'no' is not true or false"),
        ({"task": 3}, "rows[0].task: 3 is not a text or null"),
    ],
    ids=lambda value: next(iter(value)) if isinstance(value, dict) else "",
)
def test_a_wrong_field_is_one_line_naming_file_and_field(
    fields, message, fmt, tmp_path, capsys
):
    code, out, err = compare(tmp_path, capsys, saved_audit(**fields), "--format", fmt)

    assert code == ExitCode.USAGE and out == ""
    assert err.startswith(f"empty-migrate: {tmp_path / 'after.json'}: {message}")
    assert "saved with --format json" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"rows": 5}, "rows: 5 is not a list"),
        ({"rows": [5]}, "rows[0]: 5 is not an object"),
        ({"rows": [{"eval": "demo"}]}, "rows[0]: no 'task'"),
        ({"rows": [], "not_run": [{"eval": 1}]}, "not_run[0].eval: 1 is not a text"),
        ({"rows": [], "tree": ["x"]}, "tree: ['x'] is not a text"),
        ([1, 2], "not an empty-migrate audit"),
    ],
)
def test_a_wrong_shape_is_one_line(document, message, tmp_path, capsys):
    code, _, err = compare(tmp_path, capsys, json.dumps(document))

    assert code == ExitCode.USAGE
    assert f"after.json: {message}" in err and len(err.splitlines()) == 1


def test_a_saved_audit_nested_too_deep_is_refused_before_parsing(tmp_path, capsys):
    # 100,000 levels: json.loads would raise RecursionError
    code, _, err = compare(tmp_path, capsys, "[" * 100_000 + "]" * 100_000)

    assert code == ExitCode.USAGE
    assert "after.json: nested 100000 deep (an audit is at most 64)" in err


def test_a_saved_audit_larger_than_the_limit_is_refused(tmp_path, monkeypatch):
    (tmp_path / "a.json").write_text(saved_audit())
    monkeypatch.setattr(matrix, "MAX_SAVED_BYTES", 100)

    with pytest.raises(ValueError, match=r"a\.json: larger than 0 MiB"):
        read_audit(tmp_path / "a.json")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\xff\xfe\x00garbage", "not UTF-8 text"),
        (b"not json", r"not JSON \(Expecting value"),
        (b"", "not JSON"),
    ],
)
def test_a_file_that_is_no_json_says_so(data, message, tmp_path):
    (tmp_path / "a.json").write_bytes(data)

    with pytest.raises(ValueError, match=message):
        read_audit(tmp_path / "a.json")


def test_a_folder_as_a_saved_audit_says_it_cannot_be_read(tmp_path):
    with pytest.raises(ValueError, match="cannot be read: Is a directory"):
        read_audit(tmp_path)


def test_an_audit_reads_back_as_it_was_written():
    audit = Audit.from_json(saved_audit())

    assert Audit.from_json(audit.to_json()) == audit


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("1", 0),
        ('{"a": [1, {"b": []}]}', 4),
        ('["[[[[", "]]", "\\"[["]', 1),
        ('[{"x": "\\\\"}, [[]]]', 3),
    ],
)
def test_json_depth_counts_brackets_outside_strings(text, depth):
    assert json_depth(text) == depth


@pytest.fixture
def saved(tmp_path):
    """A good saved audit, and the start of an ``audit --compare`` of it with itself."""
    (tmp_path / "a.json").write_text(saved_audit())
    return ["audit", "--compare", str(tmp_path / "a.json"), str(tmp_path / "a.json")]


@pytest.mark.parametrize(
    ("make", "problem"),
    [
        (lambda p: p.mkdir(), "out is a folder where a file must go"),
        (lambda p: p.symlink_to(p.parent / "a.json"), "out is a symbolic link"),
        (lambda p: p.symlink_to(p.parent / "gone"), "out is a symbolic link"),
        (lambda p: p.symlink_to(p.parent), "out is a symbolic link"),
    ],
    ids=["folder", "link to a file", "dangling link", "link to a folder"],
)
def test_output_that_is_no_file_is_one_clear_line(
    make, problem, saved, tmp_path, capsys
):
    make(tmp_path / "out")
    before = (tmp_path / "a.json").read_text()

    assert main([*saved, "--output", str(tmp_path / "out")]) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert err == (
        f"empty-migrate: --output {tmp_path / 'out'}: {problem}"
        + err.split(problem, 1)[1]
    )
    assert "pass the path of a file to write" in err and len(err.splitlines()) == 1
    assert (tmp_path / "a.json").read_text() == before  # nothing through the link


@pytest.mark.parametrize("output", [".", "", "sub/.."])
def test_output_naming_a_folder_by_its_name_is_refused(
    output, saved, tmp_path, capsys, monkeypatch
):
    monkeypatch.chdir(tmp_path)

    assert main([*saved, "--output", output]) == ExitCode.USAGE
    assert "names a folder; pass the path of a file" in capsys.readouterr().err


def test_output_under_a_file_names_that_file(saved, tmp_path, capsys):
    (tmp_path / "f").write_text("")

    assert main([*saved, "--output", str(tmp_path / "f" / "x.html")]) == 2
    assert "f is a file where a folder must go (for x.html)" in capsys.readouterr().err


def test_output_is_checked_before_the_audit_runs(tmp_path, capsys):
    # no tree, no interpreter: --output is refused before either is looked at
    (tmp_path / "out").mkdir()
    args = ["audit", "--eval", "xstest", "--repo", str(tmp_path / "nope")]

    assert main([*args, "--output", str(tmp_path / "out")]) == ExitCode.USAGE
    assert "is a folder where a file must go" in capsys.readouterr().err


def test_output_writes_a_new_file_in_new_folders(saved, tmp_path, capsys):
    out = tmp_path / "new" / "sub" / "compare.html"

    assert main([*saved, "--format", "html", "--output", str(out)]) == ExitCode.OK
    assert out.read_text().startswith("<!DOCTYPE html>")
    assert capsys.readouterr().err == f"empty-migrate: wrote {out}\n"


def test_error_text_is_the_message_where_the_system_gave_no_reason(tmp_path):
    refused = WriteError("x is a symbolic link: nothing is written through it")
    missing = FileNotFoundError(2, "No such file or directory", str(tmp_path / "x"))

    assert refused.strerror is None  # what printed "--output X: None"
    assert error_text(refused) == str(refused)
    assert error_text(missing) == f"{tmp_path / 'x'}: No such file or directory"
