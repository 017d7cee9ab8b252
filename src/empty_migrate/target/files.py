"""Writing files whole or not at all: into the target, the cache, a PR folder.

Every file is first staged beside its destination (a temporary file, flushed
to disk), and only when all are staged are they renamed into place, so an
error while writing leaves every destination as it was.
"""

import contextlib
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path


def write_files(root: Path, files: Mapping[str, str | bytes]) -> None:
    """Write files under `root` all or nothing: stage each, then rename all.

    A text is written as UTF-8 with its line ends as they are; bytes as they are.

    An error while staging removes what was staged (and the folders made for
    it) and leaves every destination as it was.
    """
    mode = _new_file_mode()
    staged: list[tuple[str, Path]] = []
    created: list[Path] = []
    try:
        for path, text in sorted(files.items()):
            destination = root / path
            created += _make_parents(destination.parent)
            staged.append((_stage(destination, text, mode), destination))
    except BaseException:
        for temp, _ in staged:
            Path(temp).unlink(missing_ok=True)
        for folder in reversed(created):
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
    for temp, destination in staged:
        os.replace(temp, destination)


def _stage(destination: Path, content: str | bytes, new_mode: int) -> str:
    handle, temp = tempfile.mkstemp(dir=destination.parent, prefix=".em-")
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        exists = destination.exists()
        os.chmod(temp, destination.stat().st_mode if exists else new_mode)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return temp


def _make_parents(folder: Path) -> list[Path]:
    """Create `folder` and its missing parents; returns them, outermost first."""
    missing = [p for p in [folder, *folder.parents] if not p.exists()][::-1]
    for path in missing:
        path.mkdir()
    return missing


def _new_file_mode() -> int:
    """The mode a new file gets under the current umask (0644 under 022).

    `tempfile.mkstemp` creates files readable by their owner only; a migrated
    file must look as if a person had written it.
    """
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
