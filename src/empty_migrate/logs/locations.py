"""Where logs are: a local path, or a location inspect_ai reads (``s3://…``).

A location with a scheme (``s3://bucket/logs``, ``gs://…``) is listed and
fetched through inspect_ai's own filesystem layer, with the options inspect_ai
reads logs with, so it is found as ``inspect eval --log-dir`` wrote it, with
the credentials inspect_ai would use (the environment's, for S3). A remote
log is read from a local copy of it (`local_copy`), by the same code as a
local log. Both are listed and ordered by one rule, so a folder reads the
same from a bucket as from a local copy of it.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from tempfile import TemporaryDirectory
from typing import Any

from empty_migrate.errors import EmptyMigrateError

LOG_SUFFIXES = (".eval", ".json")
"""The file names a folder's logs end with."""

Location = str | Path
"""A log or a folder of logs: a local path, or a URL such as ``s3://bucket/logs``."""


class LocationError(EmptyMigrateError):
    """A location cannot be reached: no credentials, refused ones, or no filesystem."""


def is_remote(location: Location) -> bool:
    """Whether a location names a filesystem by its scheme (``s3://``, ``file://``)."""
    return isinstance(location, str) and "://" in location


def file_name(location: Location) -> str:
    """The last part of a location's path (``a.eval`` for ``s3://b/logs/a.eval``)."""
    if is_remote(location):
        return PurePosixPath(str(location).partition("://")[2]).name
    return Path(location).name


def suffix(location: Location) -> str:
    """A location's file suffix (``.eval``), found as for a local path."""
    return PurePosixPath(file_name(location)).suffix


def is_folder(location: Location) -> bool:
    """Whether a location is a folder (a prefix that holds objects, on S3).

    Raises:
        LocationError: If a remote location cannot be reached.
    """
    if not is_remote(location):
        return Path(location).is_dir()
    try:
        return bool(_filesystem(str(location)).info(str(location)).type == "directory")
    except FileNotFoundError:
        return False
    except Exception as error:
        raise LocationError(unreachable(location, error)) from None


def logs_in_folder(location: Location) -> list[Location]:
    """Every ``.eval`` and ``.json`` file under a folder, recursively, in path order.

    The order is the one sorting local paths gives (by their parts), for a
    bucket's keys too.

    Raises:
        LocationError: If a remote folder cannot be listed.
    """
    if not is_remote(location):
        inside = (p for p in Path(location).rglob("*") if p.suffix in LOG_SUFFIXES)
        return [p for p in sorted(inside) if p.is_file()]
    try:
        listed = _filesystem(str(location)).ls(str(location), recursive=True)
    except Exception as error:
        raise LocationError(unreachable(location, error)) from None
    names = [
        info.name
        for info in listed
        if info.type == "file" and suffix(info.name) in LOG_SUFFIXES
    ]
    return sorted(names, key=path_order)


def path_order(name: str) -> list[str]:
    """A remote name's place in the order sorting local paths gives (by parts)."""
    return name.partition("://")[2].split("/")


@contextmanager
def local_copy(location: Location) -> Iterator[Path]:
    """A remote log as a local file for the time of a read; a local path as is.

    A remote log is streamed once, through inspect_ai's filesystem layer, into
    a private temporary folder, and removed after. Everything that reads a log
    (the bounds, the header, the stream of samples) then reads the copy: one
    request per log, where reading the object in place costs one per read
    (inspect_ai reads remote objects without a cache).

    Raises:
        LocationError: If the log cannot be fetched: not there, or refused.
    """
    if not is_remote(location):
        yield Path(location)
        return
    with TemporaryDirectory(prefix="empty-migrate-") as folder:
        # named by its suffix alone: a key's own name could be ".." or ""
        copy = Path(folder) / f"log{suffix(location)}"
        try:
            _filesystem(str(location)).get_file(str(location), str(copy))
        except Exception as error:
            raise LocationError(unreachable(location, error)) from None
        yield copy


def _filesystem(location: str) -> Any:
    # inspect_ai's filesystem layer: the one `read_eval_log` and `inspect eval
    # --log-dir` use; imported when a remote location is read
    from empty_migrate.testing.inspect_internals import filesystem

    return filesystem(location)


def unreachable(location: Location, error: BaseException) -> str:
    """Why a remote location could not be read, in one line that says what to do.

    Credentials that are missing or refused, and a bucket or key that does
    not exist, are named as such; any other failure by its first line.
    """
    code = _error_code(error)
    if isinstance(error, PermissionError) or code in _REFUSED:
        why = f"access refused ({code or _first_line(error)})"
        return f"{location}: {why}; check the credentials the environment gives"
    if type(error).__name__ == "NoCredentialsError":
        return (
            f"{location}: no credentials found; set them as for the AWS command "
            "line (AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)"
        )
    if isinstance(error, FileNotFoundError) or code in _MISSING:
        return f"{location}: no such file"
    return f"{location} cannot be read: {_first_line(error)}"


_REFUSED = {
    "AccessDenied",
    "ExpiredToken",
    "InvalidAccessKeyId",
    "InvalidToken",
    "SignatureDoesNotMatch",
    "403",
}
_MISSING = {"NoSuchBucket", "NoSuchKey", "404"}


def _error_code(error: BaseException) -> str:
    # botocore's ClientError carries the service's code; no import of botocore
    response = getattr(error, "response", None)
    if isinstance(response, dict):
        return str(response.get("Error", {}).get("Code", ""))
    return ""


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
