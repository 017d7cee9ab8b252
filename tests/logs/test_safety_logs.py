"""`outcomes` and `audit --log` on hostile logs: one line, never a crash or a flood.

Each log here is a committed real log (``logs/data``) changed as a hostile
file would be: a model named without its provider, escape sequences in what
the reports print, nesting thousands of levels deep, a number of thousands of
digits, a ``.eval`` member that claims to unpack to gigabytes. Both commands
run through the real command line. A log past a bound is refused before any
parser reads it (the parsers' memory grows with the square of the depth, and
ijson's C backend crashes on a long number), so these tests stay fast.
"""

import json
import re
import struct
import zipfile
from pathlib import Path

import pytest

from empty_migrate.cli.common import terminal_safe
from empty_migrate.cli.main import main
from empty_migrate.logs.bounds import (
    DEPTH_LIMIT,
    DIGITS_LIMIT,
    MEMBER_BYTES_LIMIT,
    json_out_of_bounds,
)
from tests.logs.headers import provenance, with_eval

pytestmark = pytest.mark.inspect_versions

DATA = Path(__file__).parent / "data"
XSTEST = DATA / "0.3.285" / "xstest.json"
XSTEST_EVAL = DATA / "0.3.285" / "xstest.eval"
COMMANDS = {
    "outcomes": ["outcomes"],
    "audit --log": ["audit", "--log"],
}
ESCAPES = "\x1b[2J\x1b]0;owned\x07\x9b31m\r\x00\u202e"
"""Clear the screen, retitle the terminal, recolour (C1 CSI), return, NUL, bidi."""
SHOWN = r"\x1b[2J\x1b]0;owned\x07\x9b31m\x0d\x00\u202e"


@pytest.fixture(autouse=True)
def outside_any_checkout(tmp_path, monkeypatch):
    # a log's task is looked up in the registry this tool ships
    monkeypatch.chdir(tmp_path)


def run(capsys, command: str, *args: str) -> tuple[int, str, str]:
    code = main([*COMMANDS[command], *args])
    out, err = capsys.readouterr()
    return code, out, err


def changed_json(source: Path, target: Path, change) -> Path:
    """A copy of the ``.json`` log `source` at `target`, its data passed to `change`."""
    data = json.loads(source.read_text())
    change(data)
    target.write_text(json.dumps(data))
    return target


def changed_eval(source: Path, target: Path, change) -> Path:
    """A copy of the ``.eval`` log `source`, each member's bytes through `change`."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for item in old.infolist():
            data = change(item.filename, old.read(item))
            new.writestr(item.filename, data, zipfile.ZIP_DEFLATED)
    return target


def as_inspect_evals(data: dict) -> None:
    # the committed logs record no inspect_evals; audit --log needs one
    data["eval"]["task"] = "inspect_evals/xstest"


# item 12: a model named without its provider


@pytest.mark.parametrize("command", COMMANDS)
def test_a_json_log_whose_model_has_no_provider_is_read(tmp_path, capsys, command):
    """``eval.model: model`` (hand-made logs, other tools'): the report, exit 0."""

    def bare(data: dict) -> None:
        as_inspect_evals(data)
        data["eval"]["model"] = "model"

    log = changed_json(XSTEST, tmp_path / "bare.json", bare)
    code, out, err = run(capsys, command, str(log))
    assert (code, err) == (0, "")
    assert "total" in out if command == "outcomes" else out.startswith(f"log {log}")
    if command == "outcomes":
        assert re.search(r"^model  +\(all\) ", out, re.MULTILINE)


# item 13: escape sequences are shown, not sent


def hostile_text(data: dict) -> None:
    """Escape sequences in every field the text reports print from a log."""
    as_inspect_evals(data)
    data["eval"]["model"] += ESCAPES
    samples = data["samples"]
    empty = next(s for s in samples if s["id"] == 3)  # a non-answer: audit lists it
    empty["id"] = f"3{ESCAPES}"
    broken = next(s for s in samples if s.get("error"))
    broken["error"]["message"] = f"boom{ESCAPES}"


def sent_controls(text: str) -> set[str]:
    return set(re.findall(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e]", text))


# an error's first line: \r ends it
ERROR_SHOWN = "error: boom" + SHOWN.partition(r"\x0d")[0]


@pytest.mark.parametrize("command", COMMANDS)
def test_escape_sequences_in_a_log_are_shown_not_sent(tmp_path, capsys, command):
    log = changed_json(XSTEST, tmp_path / "hostile.json", hostile_text)

    code, out, err = run(capsys, command, str(log))

    assert code == 0
    assert sent_controls(out + err) == set()
    assert ERROR_SHOWN in out
    if command == "outcomes":
        assert f"mockllm/model{SHOWN}" in out
    else:
        assert re.search(rf"^3{re.escape(SHOWN)}\s+1\s+empty", out, re.MULTILINE)


def strings(value) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return [value] if isinstance(value, str) else []


@pytest.mark.parametrize("command", COMMANDS)
def test_json_output_keeps_a_logs_text_as_it_is(tmp_path, capsys, command):
    log = changed_json(XSTEST, tmp_path / "hostile.json", hostile_text)

    code, out, _ = run(capsys, command, str(log), "--format", "json")

    assert code == 0 and sent_controls(out) == set()
    assert "error: boom" + ESCAPES.partition("\r")[0] in strings(json.loads(out))


@pytest.mark.parametrize("command", COMMANDS)
def test_the_runs_error_in_a_note_is_shown_not_sent(tmp_path, capsys, command):
    def stopped(data: dict) -> None:
        as_inspect_evals(data)
        data["status"] = "error"
        samples = data.pop("samples")  # the header is read up to its samples
        message = f"boom{ESCAPES}"
        data["error"] = {"message": message, "traceback": "", "traceback_ansi": ""}
        data["samples"] = samples

    log = changed_json(XSTEST, tmp_path / "stopped.json", stopped)

    code, out, err = run(capsys, command, str(log))

    assert code == 0
    assert sent_controls(out + err) == set()
    assert (
        "the run stopped on an error (boom" + SHOWN.partition(r"\x0d")[0] in out + err
    )


def test_terminal_safe_shows_every_control_but_the_newline():
    controls = [*range(0x20), 0x7F, *range(0x80, 0xA0), 0x202E, 0x2066]
    text = "".join(map(chr, controls))
    shown = terminal_safe(text)
    assert sent_controls(shown.replace("\n", "")) == set()
    assert shown.count("\n") == 1 and r"\x1b" in shown and r"\u202e" in shown
    assert terminal_safe("→ a row … ü\n") == "→ a row … ü\n"


# item 14: nesting past the depth limit; item 15: a number of thousands of digits


def deep_metadata(depth: int):
    def change(data: dict) -> None:
        as_inspect_evals(data)
        data["samples"][0]["metadata"] = {"deep": "@DEEP@"}

    def write(target: Path) -> Path:
        changed_json(XSTEST, target, change)
        nested = "[" * depth + "]" * depth
        target.write_text(target.read_text().replace('"@DEEP@"', nested))
        return target

    return write


def long_number_in_the_header(target: Path) -> Path:
    # within the first 64 KB: inspect_ai's header scan reaches it
    changed_json(XSTEST, target, as_inspect_evals)
    text = target.read_text().replace("{", '{"n": ' + "9" * 5_000 + ", ", 1)
    target.write_text(text)
    return target


HOSTILE_JSON = {
    "deep": (deep_metadata(5_000), f"nests deeper than {DEPTH_LIMIT:,} levels"),
    "long number": (
        long_number_in_the_header,
        f"holds a number of more than {DIGITS_LIMIT:,} digits",
    ),
}


@pytest.mark.parametrize("hostile", HOSTILE_JSON)
@pytest.mark.parametrize("command", COMMANDS)
def test_a_json_log_past_a_bound_is_one_line_and_exit_2(
    tmp_path, capsys, command, hostile
):
    write, problem = HOSTILE_JSON[hostile]
    log = write(tmp_path / "hostile.json")

    code, out, err = run(capsys, command, str(log))

    assert (code, out) == (2, "")
    assert err == (
        f"empty-migrate: {log} {problem}: no Inspect log does; not read "
        "(check where this file came from)\n"
    )


@pytest.mark.parametrize("command", COMMANDS)
def test_in_a_folder_the_other_logs_are_still_reported(tmp_path, capsys, command):
    folder = tmp_path / "logs"
    folder.mkdir()
    deep_metadata(5_000)(folder / "a_deep.json")
    long_number_in_the_header(folder / "b_long.json")
    changed_json(XSTEST, folder / "c_good.json", as_inspect_evals)

    code, out, err = run(capsys, command, str(folder))

    assert code == 2
    assert err.splitlines() == [
        f"empty-migrate: {folder / 'a_deep.json'} nests deeper than "
        f"{DEPTH_LIMIT:,} levels: no Inspect log does; not read "
        "(check where this file came from)",
        f"empty-migrate: {folder / 'b_long.json'} holds a number of more than "
        f"{DIGITS_LIMIT:,} digits: no Inspect log does; not read "
        "(check where this file came from)",
    ]
    assert "a_deep" not in out
    assert "total" in out if command == "outcomes" else "log " in out


def deep_sample(name: str, data: bytes) -> bytes:
    if name == "samples/1_epoch_1.json":
        nested = b"[" * 5_000 + b"]" * 5_000
        return data.replace(b'"metadata":{', b'"metadata":{"deep":' + nested + b",", 1)
    return data


def long_number_in_header(name: str, data: bytes) -> bytes:
    if name == "header.json":
        return data.replace(b"{", b'{"n":' + b"9" * 5_000 + b",", 1)
    return data


HOSTILE_EVAL = {
    "deep": (
        deep_sample,
        f"holds samples/1_epoch_1.json, which nests deeper than {DEPTH_LIMIT:,} levels",
    ),
    "long number": (
        long_number_in_header,
        f"holds header.json, which holds a number of more than {DIGITS_LIMIT:,} digits",
    ),
}


@pytest.mark.parametrize("hostile", HOSTILE_EVAL)
@pytest.mark.parametrize("command", COMMANDS)
def test_an_eval_log_whose_member_is_past_a_bound_names_it(
    tmp_path, capsys, command, hostile
):
    change, problem = HOSTILE_EVAL[hostile]
    source = with_eval(
        XSTEST_EVAL, tmp_path / "source.eval", **provenance("package", "x")
    )
    log = changed_eval(source, tmp_path / "hostile.eval", change)

    code, out, err = run(capsys, command, str(log))

    assert (code, out) == (2, "")
    assert err == (
        f"empty-migrate: {log} {problem}: no Inspect log does; not read "
        "(check where this file came from)\n"
    )


def claiming_size(log: Path, member: str, size: int) -> Path:
    """`log` with the central directory saying `member` unpacks to `size` bytes."""
    data = bytearray(log.read_bytes())
    name = member.encode()
    at = data.index(b"PK\x01\x02")
    while data[at + 46 : at + 46 + len(name)] != name:
        at = data.index(b"PK\x01\x02", at + 4)
    struct.pack_into("<I", data, at + 24, size)
    log.write_bytes(bytes(data))
    return log


@pytest.mark.parametrize("command", COMMANDS)
def test_an_eval_member_too_large_to_unpack_is_refused_unread(
    tmp_path, capsys, command
):
    source = with_eval(
        XSTEST_EVAL, tmp_path / "source.eval", **provenance("package", "x")
    )
    log = changed_eval(source, tmp_path / "bomb.eval", lambda name, data: data)
    claiming_size(log, "header.json", MEMBER_BYTES_LIMIT + 1)

    code, out, err = run(capsys, command, str(log))

    assert (code, out) == (2, "")
    assert err == (
        f"empty-migrate: {log} holds header.json, which unpacks to more than "
        f"{MEMBER_BYTES_LIMIT >> 20:,} MiB: no Inspect log does; not read "
        "(check where this file came from)\n"
    )


# the scan itself: exact on real logs, cut at any byte, blind inside strings


def nesting_depth(value) -> int:
    children = value.values() if isinstance(value, dict) else value
    if not isinstance(value, (dict, list)):
        return 0
    return 1 + max(map(nesting_depth, children), default=0)


def bounds_of(text: bytes, block: int):
    from empty_migrate.logs.bounds import _JsonBounds

    bounds = _JsonBounds()
    for start in range(0, len(text), block):
        bounds.feed(text[start : start + block])
    return bounds


# the oldest release's logs and the newest's
REAL_LOGS = sorted([*DATA.glob("0.3.79/*.json"), *DATA.glob("0.3.285/*.json")])


@pytest.mark.parametrize("log", REAL_LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_scan_finds_a_real_logs_depth_in_any_blocks(log):
    text = log.read_bytes()
    depth = nesting_depth(json.loads(text))
    for block in (len(text), 4093):
        bounds = bounds_of(text, block)
        assert (bounds.peak, bounds.depth, bounds.problem()) == (depth, 0, None)


@pytest.mark.parametrize("block", [1, 2, 3, 5, 64])
def test_strings_and_their_escapes_hide_brackets_and_digits_in_any_blocks(block):
    text = json.dumps(
        {
            'k"[\\': ["[[[{{{", "\\", '\\"', "\\\\[", "9" * 5_000, '"]]]'],
            "n": [1.5e300, -12, [0]],
        }
    ).encode()
    bounds = bounds_of(text, block)
    assert (bounds.peak, bounds.depth, bounds.problem()) == (3, 0, None)


def test_the_limits_are_exact():
    def nested(depth: int) -> bytes:
        return b"[" * depth + b"]" * depth

    assert json_out_of_bounds([nested(DEPTH_LIMIT)]) is None
    assert json_out_of_bounds([nested(DEPTH_LIMIT + 1)]) is not None
    digits = b"1" * DIGITS_LIMIT
    assert json_out_of_bounds([b"[", digits[:10], digits[10:], b"]"]) is None
    assert json_out_of_bounds([b"[", digits[:10], digits[10:], b"1]"]) is not None
