"""A release's source archive, found on the package index and downloaded, never built.

``pip download --no-binary :all:`` prepares a source distribution's metadata:
it installs the build requirements the archive names and runs its build
backend, which ``backend-path`` may put inside the archive. So the archive is
fetched as a file instead: the project's page on the package index (the
simple API, as JSON when the index offers it, else HTML) names
``inspect_evals-VERSION.tar.gz`` with its URL and sha256; the file is
downloaded, its sha256 checked against the index's, and nothing in it runs.

The index is the one pip is configured with (``pip config list``: files and
``PIP_*`` variables; ``index-url``, ``extra-index-url``, ``no-index``,
``cert``, ``proxy``, ``timeout``), else PyPI. ``find-links`` is not read: a
folder of archives lists no hashes to check them by.
"""

import ast
import base64
import hashlib
import http.client
import json
import os
import ssl
import subprocess
import urllib.error
import urllib.request
from dataclasses import dataclass
from email.message import Message
from html.parser import HTMLParser
from pathlib import Path
from typing import BinaryIO, Protocol
from urllib.parse import unquote, urljoin, urlsplit, urlunsplit

PROJECT = "inspect-evals"
DEFAULT_INDEX = "https://pypi.org/simple"
MAX_ARCHIVE_BYTES = 1 << 30
"""The largest archive downloaded: inspect_evals 0.26.0's is 39 MB."""
MAX_PAGE_BYTES = 64 << 20
"""The most read of a project's index page: PyPI's for inspect-evals is 0.1 MB."""

_ACCEPT = (
    "application/vnd.pypi.simple.v1+json, "
    "application/vnd.pypi.simple.v1+html; q=0.1, text/html; q=0.01"
)
_CHUNK = 1 << 16
_TRUE = {"1", "true", "yes", "on"}


class ReleaseError(Exception):
    """The archive cannot be had or does not match the index; the message says why."""


@dataclass(frozen=True)
class IndexSettings:
    """Where and how to ask for a release: pip's configuration, as far as it applies."""

    indexes: tuple[str, ...]
    cert: str | None = None
    proxy: str | None = None
    timeout: float = 15.0


@dataclass(frozen=True)
class Sdist:
    """One source archive as the index lists it."""

    filename: str
    url: str
    sha256: str | None


def index_settings(pip: list[str] | None) -> IndexSettings:
    """The package indexes and connection settings pip is configured with.

    Args:
        pip: The command that runs pip, None where there is none: then the
            ``PIP_*`` variables alone say where the index is.
    """
    config = _pip_config(pip)

    def value(key: str) -> str | None:
        for section in (":env:", "download", "global"):
            if f"{section}.{key}" in config:
                return config[f"{section}.{key}"]
        return None

    if (value("no-index") or "").strip().lower() in _TRUE:
        return IndexSettings(())
    main = (value("index-url") or DEFAULT_INDEX).split()
    extra = (value("extra-index-url") or "").split()
    timeout = value("timeout") or value("default-timeout")
    return IndexSettings(
        tuple(dict.fromkeys(main[:1] + extra)),
        cert=value("cert") or None,
        proxy=value("proxy") or None,
        timeout=_seconds(timeout),
    )


def _pip_config(pip: list[str] | None) -> dict[str, str]:
    """The settings of pip as ``section.key`` (``:env:.key``: a ``PIP_*`` variable)."""
    if pip is None:
        return {
            f":env:.{name[4:].lower().replace('_', '-')}": text
            for name, text in os.environ.items()
            if name.startswith("PIP_")
        }
    run = subprocess.run([*pip, "config", "list"], capture_output=True, text=True)
    if run.returncode != 0:
        lines = [line.strip() for line in run.stderr.splitlines() if line.strip()]
        raise ReleaseError(
            f"pip config list failed ({lines[-1] if lines else 'no output'}); fix "
            "pip's configuration, or pass --repo PATH to a local checkout"
        )
    settings: dict[str, str] = {}
    for line in run.stdout.splitlines():
        key, _, text = line.partition("=")
        try:
            parsed = ast.literal_eval(text)  # pip prints each value as repr()
        except (ValueError, SyntaxError):
            continue
        if isinstance(parsed, str):
            settings[key] = parsed
    return settings


def _seconds(text: str | None) -> float:
    try:
        return max(float(text or 15), 1.0)
    except ValueError:
        return 15.0


def find_sdist(version: str, settings: IndexSettings) -> Sdist:
    """The source archive of inspect_evals `version`, from the first index listing it.

    Raises:
        ReleaseError: If no index lists it, or none can be reached.
    """
    requirement = f"{PROJECT}=={version}"
    if not settings.indexes:
        raise ReleaseError(
            f"cannot download {requirement}: pip is set to use no package index "
            "(no-index); unset it, or pass --repo PATH to a local checkout"
        )
    failures: list[Exception] = []
    for index in settings.indexes:
        page = f"{index.rstrip('/')}/{PROJECT}/"
        try:
            body, content_type, url = _read(page, settings, _ACCEPT)
        except _NotFound:
            continue
        except (_Unreachable, _Refused) as failure:
            failures.append(failure)
            continue
        for sdist in _listed(body, content_type, url):
            if _is_archive_of(sdist.filename, version) and _may_follow(url, sdist.url):
                return sdist
    if failures:
        raise ReleaseError(_failure(requirement, failures[0]))
    raise ReleaseError(
        f"{requirement} is not on the package index (no inspect_evals-{version}"
        ".tar.gz); check the version"
    )


def download_sdist(sdist: Sdist, into: Path, settings: IndexSettings) -> Path:
    """Download `sdist` into the folder `into` and check it against its sha256.

    Raises:
        ReleaseError: If the index gives no sha256, the file does not match it,
            is larger than `MAX_ARCHIVE_BYTES`, or cannot be downloaded.
    """
    if not sdist.sha256:
        raise ReleaseError(
            f"the package index gives no sha256 for {sdist.filename}, so it cannot "
            "be checked; use an index that lists hashes, or pass --repo PATH to a "
            "local checkout"
        )
    into.mkdir(parents=True, exist_ok=True)
    archive = into / Path(sdist.filename).name
    try:
        with _open(sdist.url, settings, "*/*") as response, archive.open("wb") as out:
            sha256 = _copied(response, out, sdist.filename)
    except _NotFound:
        raise ReleaseError(
            f"cannot download {sdist.filename}: the package index lists it, but "
            f"{_shown(sdist.url)} is not found; run again later, or pass --repo PATH "
            "to a local checkout"
        ) from None
    except (_Unreachable, _Refused) as failure:
        raise ReleaseError(_failure(sdist.filename, failure)) from None
    if sha256 != sdist.sha256.lower():
        raise ReleaseError(
            f"{sdist.filename} does not match the sha256 the package index gives "
            f"(expected {sdist.sha256[:16]}…, got {sha256[:16]}…); "
            "run again, or pass --repo PATH to a local checkout"
        )
    return archive


def _copied(response: "_Response", out: BinaryIO, filename: str) -> str:
    """Copy the download into `out`, at most `MAX_ARCHIVE_BYTES`; its sha256."""
    digest = hashlib.sha256()
    size = 0
    while chunk := _chunk(response):
        size += len(chunk)
        if size > MAX_ARCHIVE_BYTES:
            raise ReleaseError(
                f"{filename} is larger than {MAX_ARCHIVE_BYTES >> 20} MB; refusing it"
            )
        digest.update(chunk)
        out.write(chunk)
    return digest.hexdigest()


def _chunk(response: "_Response", size: int = _CHUNK) -> bytes:
    """The next bytes of an answer; a connection lost midway is `_Unreachable`."""
    try:
        return response.read(size)
    except (OSError, http.client.HTTPException):
        raise _Unreachable from None


def _is_archive_of(filename: str, version: str) -> bool:
    from packaging.utils import (
        InvalidSdistFilename,
        canonicalize_name,
        parse_sdist_filename,
    )
    from packaging.version import InvalidVersion, Version

    if not filename.endswith(".tar.gz"):
        return False
    try:
        name, found = parse_sdist_filename(filename)
    except (InvalidSdistFilename, InvalidVersion):  # packaging < 23.2: the latter
        return False
    return canonicalize_name(name) == PROJECT and found == Version(version)


def _may_follow(page: str, link: str) -> bool:
    """A link from an index page to the web, or to a local file from a local index.

    An index on the web naming ``file:`` would have this machine's files read.
    """
    scheme = urlsplit(link).scheme
    return scheme in {"http", "https"} or scheme == urlsplit(page).scheme


def _listed(body: bytes, content_type: str, page: str) -> list[Sdist]:
    if content_type.startswith("application/vnd.pypi.simple.v1+json"):
        return _listed_in_json(body, page)
    parser = _Anchors()
    parser.feed(body.decode("utf-8", errors="replace"))
    found = []
    for href in parser.hrefs:
        url, _, fragment = urljoin(page, href).partition("#")
        algorithm, _, value = fragment.partition("=")
        filename = unquote(urlsplit(url).path.rsplit("/", 1)[-1])
        found.append(Sdist(filename, url, value if algorithm == "sha256" else None))
    return found


def _listed_in_json(body: bytes, page: str) -> list[Sdist]:
    try:
        files = json.loads(body).get("files", [])
    except (ValueError, AttributeError, RecursionError):  # not an index's answer
        return []
    found = []
    for entry in files if isinstance(files, list) else []:
        if not isinstance(entry, dict):
            continue
        filename, url = entry.get("filename"), entry.get("url")
        hashes = entry.get("hashes")
        sha = hashes.get("sha256") if isinstance(hashes, dict) else None
        if isinstance(filename, str) and isinstance(url, str):
            sha256 = sha if isinstance(sha, str) else None
            found.append(Sdist(filename, urljoin(page, url), sha256))
    return found


class _Anchors(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.hrefs.append(href)


class _NotFound(Exception):
    """The index has no such page (HTTP 404, or no such local file)."""


class _Unreachable(Exception):
    """The index could not be reached (no connection, a timeout)."""


class _Refused(Exception):
    """The index answered with an error; the message says which."""


class _Response(Protocol):
    """What both an HTTP response and a local file's answer offer."""

    headers: Message

    def read(self, size: int = ..., /) -> bytes: ...

    def geturl(self) -> str: ...

    def __enter__(self) -> "_Response": ...

    def __exit__(self, *exc: object) -> None: ...


def _read(url: str, settings: IndexSettings, accept: str) -> tuple[bytes, str, str]:
    """The body, content type and final URL of one index page."""
    with _open(url, settings, accept) as response:
        body = _chunk(response, MAX_PAGE_BYTES)
        return body, response.headers.get_content_type(), response.geturl()


def _open(url: str, settings: IndexSettings, accept: str) -> _Response:
    """`url` opened through pip's settings; a local folder's ``index.html``, as pip."""
    plain, authorization = _without_credentials(url)
    parts = urlsplit(plain)
    if parts.scheme == "file" and parts.path.endswith("/"):
        plain = urlunsplit(parts._replace(path=parts.path + "index.html"))
    request = urllib.request.Request(plain, headers={"Accept": accept})
    if authorization:
        request.add_unredirected_header("Authorization", authorization)
    handlers: list[urllib.request.BaseHandler] = [
        urllib.request.HTTPSHandler(context=_tls(settings.cert))
    ]
    if settings.proxy:
        proxies = {"http": settings.proxy, "https": settings.proxy}
        handlers.append(urllib.request.ProxyHandler(proxies))
    opener = urllib.request.build_opener(*handlers)
    try:
        response: _Response = opener.open(request, timeout=settings.timeout)
    except urllib.error.HTTPError as error:
        if error.code == 404:
            raise _NotFound from None
        raise _Refused(f"{_shown(url)} answered HTTP {error.code}") from None
    except urllib.error.URLError as error:
        if isinstance(error.reason, FileNotFoundError | NotADirectoryError):
            raise _NotFound from None
        if isinstance(error.reason, ssl.SSLError | ssl.CertificateError):
            raise _Refused(f"{_shown(url)}: {error.reason}") from None
        raise _Unreachable from None
    except ValueError as error:  # not a URL urllib can open
        raise _Refused(f"{_shown(url)}: {error}") from None
    except OSError:
        raise _Unreachable from None
    return response


def _tls(cert: str | None) -> ssl.SSLContext:
    """Certificates as pip's ``cert`` setting names them (a bundle or a folder)."""
    folder = cert is not None and os.path.isdir(cert)
    try:
        return ssl.create_default_context(
            cafile=None if folder else cert, capath=cert if folder else None
        )
    except (OSError, ssl.SSLError) as error:
        raise ReleaseError(
            f"pip's cert setting {cert!r} cannot be used ({error}); fix it (pip "
            "config list), or pass --repo PATH to a local checkout"
        ) from None


def _without_credentials(url: str) -> tuple[str, str | None]:
    """`url` without its ``user:password@``, and the header that carries them."""
    parts = urlsplit(url)
    if parts.username is None:
        return url, None
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    pair = f"{unquote(parts.username)}:{unquote(parts.password or '')}"
    token = base64.b64encode(pair.encode()).decode()
    return urlunsplit(parts._replace(netloc=netloc)), f"Basic {token}"


def _shown(url: str) -> str:
    """`url` fit for a message: without credentials."""
    return _without_credentials(url)[0]


def _failure(what: str, failure: Exception) -> str:
    """One line for an index that could not be asked (`_Unreachable`, `_Refused`)."""
    if isinstance(failure, _Refused):
        return (
            f"cannot download {what}: {failure}; check pip's index settings "
            "(pip config list), or pass --repo PATH to a local checkout"
        )
    return (
        f"cannot download {what}: the package index is unreachable; "
        "check the network, or pass --repo PATH to a local checkout"
    )
