"""The bounds a log must keep before any JSON parser reads it.

A log is hostile input. Two shapes of JSON make the parsers that read logs
fail badly, whatever the file's size: nesting (ijson's prefixes, in our
stream of samples and in inspect_ai's header scan, grow with the square of
the depth: a 40 KB log 20,000 levels deep peaks at 1 GiB), and a number with
more digits than Python converts (ijson's C backend crashes on one past
4,300 digits). A ``.eval`` log is a zip archive: each JSON member is bounded
the same way, and its size too, since every reader reads a member whole.

`log_out_of_bounds` scans the bytes once, a block at a time, with byte
operations only (no parser), so its memory stays flat and it refuses a
hostile log before anything else reads it. Real logs are far inside the
bounds: Inspect's logs nest about a dozen levels and write numbers of at most
a few dozen digits.
"""

from array import array
from collections.abc import Iterable
from itertools import accumulate
from pathlib import Path
from typing import IO
from zipfile import BadZipFile, ZipFile

DEPTH_LIMIT = 1_000
"""The deepest nesting of arrays and objects a log may hold."""
DIGITS_LIMIT = 1_000
"""The most digits a number in a log may have in a row."""
MEMBER_BYTES_LIMIT = 1 << 30
"""The largest JSON member a ``.eval`` log may hold, unpacked (1 GiB)."""

_BLOCK = 1 << 20
_BRACKETS = b"[{]}"
# an opening bracket is one level down (1), a closing one a level up (-1)
_MOVES = bytes.maketrans(_BRACKETS, b"\x01\x01\xff\xff")
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(_BRACKETS)))
# digits become "0" and every other byte " ", to find a long run with `find`
_DIGIT_MARKS = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))


class _JsonBounds:
    r"""Scans one JSON document a block at a time for its depth and longest number.

    Only the text outside strings counts. Within a string, an escaped
    backslash or quote is dropped first (escapes pair from the left, so
    removing ``\\`` then ``\"`` leaves exactly the quotes that delimit
    strings); a run of backslashes cut by a block's end keeps only its
    parity for the next block.
    """

    def __init__(self) -> None:
        self.depth = 0
        self.peak = 0
        self.digits = 0
        self.longest = 0
        self._in_string = False
        self._carry = b""

    def feed(self, block: bytes) -> None:
        data = self._carry + block
        run = len(data) - len(data.rstrip(b"\\"))
        self._carry = b"\\" if run % 2 else b""
        data = data[: len(data) - run].replace(b"\\\\", b"").replace(b'\\"', b"")
        parts = data.split(b'"')
        outside = b"".join(parts[1 if self._in_string else 0 :: 2])
        if len(parts) % 2 == 0:
            self._in_string = not self._in_string
        self._count_depth(outside)
        self._count_digits(outside)

    def _count_depth(self, outside: bytes) -> None:
        moves = array("b", outside.translate(_MOVES, _NOT_BRACKETS))
        self.peak = max(self.peak, max(accumulate(moves, initial=self.depth)))
        self.depth += sum(moves)

    def _count_digits(self, outside: bytes) -> None:
        marks = outside.translate(_DIGIT_MARKS)
        if not marks.strip(b"0"):  # all digits: the run goes on
            self.digits += len(marks)
            self.longest = max(self.longest, self.digits)
            return
        leading = len(marks) - len(marks.lstrip(b"0"))
        self.longest = max(self.longest, self.digits + leading)
        if marks.find(b"0" * (DIGITS_LIMIT + 1)) >= 0:
            self.longest = max(self.longest, DIGITS_LIMIT + 1)
        self.digits = len(marks) - len(marks.rstrip(b"0"))

    def problem(self) -> str | None:
        if self.peak > DEPTH_LIMIT:
            return f"nests deeper than {DEPTH_LIMIT:,} levels"
        if self.longest > DIGITS_LIMIT:
            return f"holds a number of more than {DIGITS_LIMIT:,} digits"
        return None


def json_out_of_bounds(blocks: Iterable[bytes]) -> str | None:
    """What of a JSON document, read as `blocks`, is past the bounds (None if nothing).

    Stops at the first block past a bound.
    """
    bounds = _JsonBounds()
    for block in blocks:
        bounds.feed(block)
        if problem := bounds.problem():
            return problem
    return None


def json_depth(text: str) -> int:
    """How deep the arrays and objects of JSON `text` nest (0: a scalar).

    Counted by the same scan as a log's bounds, without parsing: a parser
    recurses once per level. Brackets inside strings do not count.
    """
    bounds = _JsonBounds()
    bounds.feed(text.encode("utf-8"))
    return bounds.peak


def _blocks(stream: IO[bytes]) -> Iterable[bytes]:
    while block := stream.read(_BLOCK):
        yield block


def _eval_out_of_bounds(path: Path) -> str | None:
    with ZipFile(path) as archive:
        for member in archive.infolist():
            if not member.filename.endswith(".json"):
                continue
            if member.file_size > MEMBER_BYTES_LIMIT:
                limit = MEMBER_BYTES_LIMIT >> 20
                return (
                    f"holds {member.filename}, which unpacks to more than {limit:,} MiB"
                )
            # read through zipfile, which stops at the size the archive
            # declares and checks the CRC: what is scanned is what is read
            with archive.open(member) as stream:
                if problem := json_out_of_bounds(_blocks(stream)):
                    return f"holds {member.filename}, which {problem}"
    return None


def log_out_of_bounds(path: Path) -> str | None:
    """What of a log is past the bounds, in words after its name; None if nothing.

    A ``.eval`` log's JSON members are each scanned (``holds
    samples/1_epoch_1.json, which nests deeper than 1,000 levels``); any other
    file as one JSON document (``nests deeper than 1,000 levels``). A
    file that cannot be opened, or an archive that is damaged, is left to the
    log reader, which names what is wrong.
    """
    try:
        if path.suffix == ".eval":
            return _eval_out_of_bounds(path)
        with path.open("rb") as stream:
            return json_out_of_bounds(_blocks(stream))
    except (OSError, BadZipFile, EOFError, NotImplementedError, ValueError):
        return None
