"""A target file's bytes as the text the tool works on, and that text put back.

The tool migrates UTF-8 files, and works on their text with LF line ends
and no byte-order mark, whatever the file holds: `decoded` gives that text,
and the file's own text when it differs (CRLF or mixed line ends, a BOM). A
file that is not UTF-8 raises `NotUtf8`, whose message names the file, the
first bad byte and what to do; the eval it belongs to is skipped.

Where the tool outputs a file's new text (writing it, committing it, printing
its diff), `restored` puts it back in the file's own form by one rule: the
lines the migration left alone keep their bytes, line end included; a new or
changed line takes the file's most common line end; a BOM stays. A file the
tool creates is written as it is made: LF, no BOM.
"""

import difflib
import io
import re
from pathlib import Path

BOM = "\ufeff"
_CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.MULTILINE)
"""A PEP 263 encoding declaration."""


class NotUtf8(Exception):
    """A target file that is not UTF-8: the tool does not rewrite it.

    Attributes:
        line: The line of the first byte that is not UTF-8.
    """

    def __init__(self, message: str, line: int = 1) -> None:
        super().__init__(message)
        self.line = line

    def __reduce__(self) -> tuple[type["NotUtf8"], tuple[str, int]]:
        return NotUtf8, (str(self), self.line)


def _not_utf8(path: str, data: bytes, error: UnicodeDecodeError) -> NotUtf8:
    """The error for a file that is not UTF-8: where, and what to do."""
    line = data.count(b"\n", 0, error.start) + 1
    where = f"byte 0x{data[error.start]:02x} at offset {error.start}, line {line}"
    declared = _CODING.search(b"\n".join(data.split(b"\n", 2)[:2]))
    if declared:
        where += f"; it declares {declared.group(1).decode('ascii')}"
    return NotUtf8(
        f"{path} is not UTF-8 ({where}): convert it to UTF-8 to migrate this eval",
        line,
    )


def decoded(data: bytes, path: str) -> tuple[str, str | None]:
    """A file's text as the tool works on it, and the file's own text if different.

    The text has LF line ends and no BOM; the second item is the file's
    text as it is (CR line ends, a BOM), or None when that is the same.

    Raises:
        NotUtf8: If the bytes are not UTF-8 (naming `path`).
    """
    try:
        found = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _not_utf8(path, data, error) from None
    if "\r" not in found and not found.startswith(BOM):
        return found, None
    return found.removeprefix(BOM).replace("\r\n", "\n").replace("\r", "\n"), found


def source_text(file: Path) -> str:
    """The text of a file as the tool works on it (see `decoded`).

    Raises:
        NotUtf8: If the file is not UTF-8.
        OSError: If it cannot be read.
    """
    return decoded(file.read_bytes(), str(file))[0]


def restored(found: str | None, text: str) -> str:
    """`text` in the form of the file as found (its line ends and BOM).

    `found` is the file's own text, as `decoded` gives it (None: the text is
    already in the file's form, or the file is new). The lines of `text` that
    match the file's lines, aligned as a diff aligns them, keep the file's
    bytes; the others take its most common line end.
    """
    if found is None:
        return text
    text = text.replace("\r\n", "\n")  # a formatter told to write CRLF, say
    # a line of the file as found ends at CRLF, CR or LF, as Python reads source
    own = io.StringIO(found.removeprefix(BOM), newline="").readlines()
    working = [
        line.rstrip("\r\n") + "\n" if line[-1] in "\r\n" else line for line in own
    ]
    new = lines(text)
    end = _most_common_end(own)
    parts = [BOM] if found.startswith(BOM) else []
    matcher = difflib.SequenceMatcher(None, working, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            parts += own[i1:i2]
        else:
            parts += [
                line[:-1] + end if line[-1] == "\n" else line for line in new[j1:j2]
            ]
    return "".join(parts)


def lines(text: str) -> list[str]:
    """A text's lines with their ends, as git counts them: each ends at LF.

    A CR before the LF, or anywhere else, is part of the line.
    """
    return io.StringIO(text, newline="\n").readlines()


def _most_common_end(own_lines: list[str]) -> str:
    """The line end most of the lines have; LF on a tie or with none."""
    counts = {"\n": 0, "\r\n": 0, "\r": 0}
    for line in own_lines:
        if line.endswith("\r\n"):
            counts["\r\n"] += 1
        elif line[-1] in "\r\n":
            counts[line[-1]] += 1
    return max(counts, key=lambda end: counts[end])
