"""Logs on S3 read as a local copy of them reads, against a real S3 server process.

The committed logs of one release (``.eval`` and ``.json`` side by side, runs
that finished, were cancelled and hit limits) are put in a bucket of moto's
standalone server, and ``outcomes`` and ``audit --log`` run as the user runs
them, as processes of their own, on the bucket and on a local copy. Their
output is the same byte for byte, once the bucket's ``s3://logs/`` is taken off
the names the remote run prints. A key that is not there, a bucket that is not
there and credentials the server refuses are each one line and exit 2.
"""

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.s3server import s3_server, upload

pytestmark = pytest.mark.slow

RELEASE = Path(__file__).parent / "data" / "0.3.285"
BUCKET = "s3://logs/"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict, Path]]:
    """The server's environment, with the logs in its bucket and in a local folder."""
    here = tmp_path_factory.mktemp("s3")
    shutil.copytree(RELEASE, here / "runs")
    with s3_server() as env:
        assert upload(env, "logs", here / "runs", "runs") == 16
        yield env, here


def run(env: dict[str, str], cwd: Path, *args: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "empty_migrate", *args],
        cwd=cwd,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
    )
    return done.returncode, done.stdout, done.stderr


def same_as_local(server: tuple[dict, Path], *args: str) -> None:
    """The command on ``runs…`` in the bucket writes what it writes on a local copy."""
    env, here = server
    remote = [
        a.replace("runs", f"{BUCKET}runs", 1) if a.startswith("runs") else a
        for a in args
    ]
    local_run = run(env, here, *args)
    code, out, err = run(env, here, *remote)
    assert (code, out.replace(BUCKET, ""), err.replace(BUCKET, "")) == local_run
    assert BUCKET in out + err or "runs" not in local_run[1] + local_run[2]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_outcomes_of_a_folder_in_a_bucket(server, fmt):
    same_as_local(server, "outcomes", "runs", "--format", fmt)


def test_outcomes_of_one_json_log_in_a_bucket(server):
    same_as_local(server, "outcomes", "runs/xstest_cancelled.json")


def test_audit_of_a_folder_in_a_bucket(server):
    same_as_local(server, "audit", "--log", "runs", "--format", "json")


def test_audit_of_one_log_in_a_bucket(server):
    same_as_local(server, "audit", "--log", "runs/xstest.eval")


@pytest.mark.parametrize(
    "location",
    [f"{BUCKET}runs/nothing_here.eval", "s3://no-such-bucket/runs/xstest.eval"],
)
@pytest.mark.parametrize("command", [["outcomes"], ["audit", "--log"]])
def test_a_log_that_is_not_there_is_one_line(server, command, location):
    env, here = server
    code, out, err = run(env, here, *command, location)
    assert (code, out) == (2, "")
    assert err == f"empty-migrate: {location}: no such file\n"


@pytest.fixture(scope="module")
def refusing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict, Path]]:
    """A server that refuses every key, as S3 refuses one it does not know."""
    with s3_server(refuse_credentials=True) as env:
        yield env, tmp_path_factory.mktemp("refused")


@pytest.mark.parametrize("location", [f"{BUCKET}runs", f"{BUCKET}runs/xstest.eval"])
@pytest.mark.parametrize("command", [["outcomes"], ["audit", "--log"]])
def test_refused_credentials_are_one_line(refusing, command, location):
    env, here = refusing
    code, out, err = run(env, here, *command, location)
    assert (code, out) == (2, "")
    [line] = err.splitlines()
    assert line.startswith(f"empty-migrate: {location}: access refused (")
    assert line.endswith("; check the credentials the environment gives")
