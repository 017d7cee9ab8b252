"""A target file's bytes as the text the tool works on.

The tool migrates UTF-8 files, and works on their text with LF line ends
and no byte-order mark, whatever the file holds: `decoded` gives that text,
and the file's own text when it differs (CRLF or mixed line ends, a BOM). A
file that is not UTF-8 raises `NotUtf8`, whose message names the file, the
first bad byte and what to do; the eval it belongs to is skipped.
"""

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
