"""Getting a release: its archive from the index, checked, unpacked, never built.

A release's source archive can name a build backend that lives inside it
(``backend-path = ["."]``); preparing its metadata, as ``pip download`` does,
runs that code. The archives here carry such a backend, which writes a marker
file when anything imports it: the marker must never appear.
"""

import hashlib
import http.server
import io
import json
import socket
import subprocess
import sys
import tarfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from empty_migrate.cli.exit_codes import ExitCode
from empty_migrate.cli.main import main
from empty_migrate.target import corpus
from empty_migrate.target.corpus import (
    SOURCE_MARKER,
    CorpusError,
    pip_command,
    resolve_target,
)
from empty_migrate.target.release import (
    IndexSettings,
    ReleaseError,
    download_sdist,
    find_sdist,
    index_settings,
)
from tests.demo import fake_cached_release

VERSION = "9.9.9"
ARCHIVE = f"inspect_evals-{VERSION}.tar.gz"
SPEC = f"pypi:inspect-evals=={VERSION}"


def backend(marker: Path) -> str:
    """A PEP 517 backend that leaves `marker` behind when it is imported."""
    return f"""\
import pathlib

pathlib.Path({str(marker)!r}).write_text("the release's build backend ran\\n")


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(directory, config_settings=None):
    raise RuntimeError("built")


def build_wheel(directory, config_settings=None, metadata_directory=None):
    raise RuntimeError("built")


def build_sdist(directory, config_settings=None):
    raise RuntimeError("built")
"""


PYPROJECT = """\
[build-system]
requires = []
build-backend = "marker_backend"
backend-path = ["."]

[project]
name = "inspect_evals"
version = "9.9.9"
"""


def sdist_bytes(marker: Path, **extra: str) -> bytes:
    """A source archive of inspect_evals whose build backend writes `marker`."""
    files = {
        "PKG-INFO": f"Metadata-Version: 2.1\nName: inspect_evals\nVersion: {VERSION}\n",
        "pyproject.toml": PYPROJECT,
        "marker_backend.py": backend(marker),
        "src/inspect_evals/__init__.py": "",
        "src/inspect_evals/demo/__init__.py": "VALUE = 1\n",
    } | extra
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"inspect_evals-{VERSION}/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def simple_index(root: Path, archive: bytes, sha256: str | None = None) -> Path:
    """A PEP 503 index at ``root/simple`` listing `archive` (with `sha256`)."""
    (root / "files").mkdir(parents=True)
    (root / "files" / ARCHIVE).write_bytes(archive)
    digest = sha256 if sha256 is not None else hashlib.sha256(archive).hexdigest()
    fragment = f"#sha256={digest}" if digest else ""
    page = root / "simple" / "inspect-evals"
    page.mkdir(parents=True)
    wheel = f"inspect_evals-{VERSION}-py3-none-any.whl"
    (page / "index.html").write_text(
        "<!DOCTYPE html><html><body>\n"
        f'<a href="../../files/{wheel}#sha256={"0" * 64}">{wheel}</a>\n'
        f'<a href="../../files/{ARCHIVE}{fragment}">{ARCHIVE}</a>\n'
        "</body></html>\n"
    )
    return root / "simple"


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "cache"
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(root))
    return root


@pytest.fixture
def index_env(monkeypatch):
    """pip (and so the tool) sees only the index the test names."""

    def use(url: str) -> None:
        monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
        monkeypatch.setenv("PIP_INDEX_URL", url)
        monkeypatch.setenv("PIP_FIND_LINKS", "")
        monkeypatch.delenv("PIP_EXTRA_INDEX_URL", raising=False)
        monkeypatch.delenv("PIP_NO_INDEX", raising=False)

    return use


def leftovers(cache: Path) -> list[str]:
    return sorted(p.name for p in cache.iterdir()) if cache.exists() else []


def local(index: Path) -> IndexSettings:
    return IndexSettings((index.as_uri(),))


# the archive, found, downloaded and unpacked without running anything in it


def test_the_archive_is_unpacked_and_its_backend_never_runs(tmp_path):
    marker = tmp_path / "backend-ran"
    index = simple_index(tmp_path / "index", sdist_bytes(marker))
    sdist = find_sdist(VERSION, local(index))
    assert sdist.filename == ARCHIVE
    archive = download_sdist(sdist, tmp_path / "download", local(index))
    tree = corpus._extract(archive, tmp_path / "tree")
    assert (tree / "src/inspect_evals/demo/__init__.py").read_text() == "VALUE = 1\n"
    assert (tree / "marker_backend.py").is_file()
    assert not marker.exists()


@pytest.mark.slow
def test_a_release_from_a_local_index_is_fetched_without_building(
    tmp_path, cache, index_env
):
    marker = tmp_path / "backend-ran"
    index_env(simple_index(tmp_path / "index", sdist_bytes(marker)).as_uri())
    target = resolve_target(SPEC)
    assert target.path == cache / f"inspect-evals-{VERSION}"
    assert (target.path / SOURCE_MARKER).read_text() == f"{SPEC}\n"
    assert (target.path / "src/inspect_evals/demo/__init__.py").is_file()
    assert not marker.exists()
    assert leftovers(cache) == [f"inspect-evals-{VERSION}"]


@pytest.fixture
def served(tmp_path) -> Iterator[tuple[str, Path]]:
    """``python -m http.server`` serving ``tmp_path/index``: its URL and folder."""
    folder = tmp_path / "index"
    folder.mkdir()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"]
    server = subprocess.Popen(
        command, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.02)
        yield f"http://127.0.0.1:{port}", folder
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.mark.slow
def test_a_release_over_http_is_fetched_without_building(
    tmp_path, cache, index_env, served
):
    url, folder = served
    marker = tmp_path / "backend-ran"
    simple_index(folder, sdist_bytes(marker))
    index_env(f"{url}/simple")
    target = resolve_target(SPEC)
    assert (target.path / "src/inspect_evals/demo/__init__.py").is_file()
    assert not marker.exists()


class _JsonIndex(http.server.BaseHTTPRequestHandler):
    """A PEP 691 index: the project page as JSON, files by name."""

    archive = b""

    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        if self.path == "/simple/inspect-evals/":
            assert "application/vnd.pypi.simple.v1+json" in self.headers["Accept"]
            sha = hashlib.sha256(self.archive).hexdigest()
            files = [
                {"filename": ARCHIVE, "url": f"/f/{ARCHIVE}", "hashes": {"sha256": sha}}
            ]
            self._send(
                "application/vnd.pypi.simple.v1+json",
                json.dumps({"files": files}).encode(),
            )
        elif self.path == f"/f/{ARCHIVE}":
            self._send("application/octet-stream", self.archive)
        else:
            self.send_error(404)

    def _send(self, content_type: str, body: bytes) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def serving(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[str]:
    """`handler` answering on a loopback port, in a thread: the server's URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_json_index_is_read(tmp_path):
    marker = tmp_path / "backend-ran"
    handler = type("Handler", (_JsonIndex,), {"archive": sdist_bytes(marker)})
    with serving(handler) as url:
        settings = IndexSettings((f"{url}/simple/",))
        sdist = find_sdist(VERSION, settings)
        archive = download_sdist(sdist, tmp_path / "download", settings)
    tree = corpus._extract(archive, tmp_path / "tree")
    assert tree.name == f"inspect_evals-{VERSION}"
    assert not marker.exists()


# what cannot be checked, or is not what the index says, is one clear line


def test_a_hash_mismatch_is_one_line(tmp_path):
    index = simple_index(tmp_path / "index", sdist_bytes(tmp_path / "m"), "ab" * 32)
    sdist = find_sdist(VERSION, local(index))
    with pytest.raises(ReleaseError) as raised:
        download_sdist(sdist, tmp_path / "download", local(index))
    message = str(raised.value)
    assert message.startswith(
        f"{ARCHIVE} does not match the sha256 the package index gives "
        "(expected abababababababab…, got "
    )
    assert message.endswith("…); run again, or pass --repo PATH to a local checkout")
    assert "\n" not in message


@pytest.mark.slow
def test_a_hash_mismatch_ends_the_command_in_one_line(
    tmp_path, demo, cache, index_env, capsys
):
    demo.add_demo_eval()
    archive = sdist_bytes(tmp_path / "m")
    index_env(simple_index(tmp_path / "index", archive, "ab" * 32).as_uri())
    command = ["registry", "validate", "--registry", str(demo.registry)]
    assert main([*command, "--repo", SPEC]) == ExitCode.USAGE
    out, err = capsys.readouterr()
    assert (out, err.count("\n")) == ("", 1)
    assert err.startswith(f"empty-migrate: {ARCHIVE} does not match the sha256 ")
    assert leftovers(cache) == []


def test_an_archive_the_index_gives_no_hash_for_is_refused(tmp_path):
    index = simple_index(tmp_path / "index", sdist_bytes(tmp_path / "m"), "")
    sdist = find_sdist(VERSION, local(index))
    with pytest.raises(ReleaseError, match=f"gives no sha256 for {ARCHIVE}, so it"):
        download_sdist(sdist, tmp_path / "download", local(index))
    assert not (tmp_path / "download").exists()


def test_a_version_the_index_lacks_is_one_line(tmp_path):
    index = simple_index(tmp_path / "index", sdist_bytes(tmp_path / "m"))
    with pytest.raises(ReleaseError) as raised:
        find_sdist("9.9.8", local(index))
    assert str(raised.value) == (
        "inspect-evals==9.9.8 is not on the package index (no "
        "inspect_evals-9.9.8.tar.gz); check the version"
    )


def test_a_web_index_linking_a_local_file_is_not_followed(tmp_path):
    secret = tmp_path / ARCHIVE
    secret.write_bytes(b"this machine's file")
    body = f'<a href="{secret.as_uri()}#sha256={"0" * 64}">{ARCHIVE}</a>'.encode()
    handler = type(
        "Handler", (_JsonIndex,), {"do_GET": lambda self: self._send("text/html", body)}
    )
    with serving(handler) as url:
        with pytest.raises(ReleaseError, match="is not on the package index"):
            find_sdist(VERSION, IndexSettings((f"{url}/simple",)))


def test_an_archive_too_large_to_be_a_release_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(corpus, "MAX_TREE_FILES", 3)
    archive = tmp_path / ARCHIVE
    archive.write_bytes(sdist_bytes(tmp_path / "m"))
    with pytest.raises(CorpusError) as raised:
        corpus._extract(archive, tmp_path / "tree")
    assert str(raised.value).startswith(
        f"{ARCHIVE} holds 5 entries, 0 MB in all, more "
    )
    assert not (tmp_path / "tree").exists()


def test_no_index_is_one_line():
    with pytest.raises(ReleaseError, match=r"pip is set to use no package index"):
        find_sdist(VERSION, IndexSettings(()))


def test_the_cached_tree_is_reused_without_asking_the_index(tmp_path, cache, index_env):
    index_env("http://127.0.0.1:9/simple")
    tree = fake_cached_release(cache, VERSION)
    assert resolve_target(SPEC).path == tree


# EMPTY_MIGRATE_CACHE


@pytest.mark.parametrize("value", ["relative-cache", "./c", "~/c"])
def test_a_relative_cache_setting_is_refused(
    tmp_path, demo, monkeypatch, capsys, value
):
    demo.add_demo_eval()
    monkeypatch.chdir(demo.repo)
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", value)
    before = sorted(p.name for p in demo.repo.iterdir())
    command = ["--eval", "demo", "--dry-run", "--registry", str(demo.registry)]
    assert main(command) == ExitCode.USAGE
    out, err = capsys.readouterr()
    assert (out, err) == (
        "",
        f"empty-migrate: EMPTY_MIGRATE_CACHE={value!r} is a relative path; give an "
        "absolute one (or unset it to use the user cache)\n",
    )
    assert sorted(p.name for p in demo.repo.iterdir()) == before


# which index: pip's settings, in pip's order


@pytest.mark.slow
def test_the_indexes_are_the_ones_pip_is_set_to_use(index_env, monkeypatch):
    index_env("https://mirror.example/simple")
    monkeypatch.setenv("PIP_EXTRA_INDEX_URL", "file:///a/simple file:///b/simple")
    monkeypatch.setenv("PIP_CERT", "/etc/ssl/certs/ca-certificates.crt")
    monkeypatch.setenv("PIP_DEFAULT_TIMEOUT", "42")
    settings = index_settings(pip_command())
    assert settings == IndexSettings(
        ("https://mirror.example/simple", "file:///a/simple", "file:///b/simple"),
        cert="/etc/ssl/certs/ca-certificates.crt",
        timeout=42.0,
    )
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    assert index_settings(pip_command()).indexes == ()


def test_an_index_without_the_project_is_passed_over(tmp_path):
    empty = tmp_path / "empty/simple"
    empty.mkdir(parents=True)
    index = simple_index(tmp_path / "index", sdist_bytes(tmp_path / "m"))
    sdist = find_sdist(VERSION, IndexSettings((empty.as_uri(), index.as_uri())))
    assert sdist.url == (tmp_path / "index/files" / ARCHIVE).as_uri()


class _Forbidden(_JsonIndex):
    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        assert self.headers["Authorization"] == "Basic dXNlcjpzM2NyZXQ="
        self.send_error(403)


def test_an_index_refusing_is_one_line_without_its_password():
    with serving(_Forbidden) as url:
        index = url.replace("http://", "http://user:s3cret@") + "/simple"
        with pytest.raises(ReleaseError) as raised:
            find_sdist(VERSION, IndexSettings((index,)))
    assert str(raised.value) == (
        f"cannot download inspect-evals=={VERSION}: {url}/simple/inspect-evals/ "
        "answered HTTP 403; check pip's index settings (pip config list), or pass "
        "--repo PATH to a local checkout"
    )


def test_without_pip_its_variables_name_the_index(monkeypatch):
    monkeypatch.setenv("PIP_INDEX_URL", "https://mirror.example/simple")
    monkeypatch.setenv("PIP_EXTRA_INDEX_URL", "file:///a/simple")
    monkeypatch.delenv("PIP_NO_INDEX", raising=False)
    assert index_settings(None).indexes == (
        "https://mirror.example/simple",
        "file:///a/simple",
    )


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 100_000,
        b'{"files": 3}',
        b'{"files": [{"filename": "%s"}]}' % ARCHIVE.encode(),
    ],
)
def test_a_json_page_that_is_not_an_index_lists_nothing(body):
    handler = type(
        "Handler",
        (_JsonIndex,),
        {
            "do_GET": lambda self: self._send(
                "application/vnd.pypi.simple.v1+json", body
            )
        },
    )
    with serving(handler) as url:
        with pytest.raises(ReleaseError, match="is not on the package index"):
            find_sdist(VERSION, IndexSettings((f"{url}/simple",)))
