"""A real S3-compatible server for tests and benchmarks: moto's standalone server.

`s3_server` starts ``python -m moto.server`` as a process of its own on a free
port (no patching in this process: the code under test talks HTTP to it as it
would to S3), waits until it answers, and stops it on exit. With
``refuse_credentials`` the server checks every request's signature from the
first, so any key is refused as AWS refuses an unknown one.
"""

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
}


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def s3_server(*, refuse_credentials: bool = False) -> Iterator[dict[str, str]]:
    """Run moto's server; yield the environment that points AWS clients at it.

    The environment is the ``AWS_*`` variables a client process needs (the
    endpoint and credentials); merge it into a child's environment.
    """
    port = free_port()
    env = {**os.environ, **CREDENTIALS}
    if refuse_credentials:
        # moto's switch for checking signatures: after this many requests (none)
        env["INITIAL_NO_AUTH_ACTION_COUNT"] = "0"
    server = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    endpoint = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(endpoint, server)
        yield {**CREDENTIALS, "AWS_ENDPOINT_URL": endpoint}
    finally:
        server.terminate()
        server.wait(timeout=10)


def _wait_until_up(endpoint: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"moto's server exited with {server.returncode}")
        try:
            urllib.request.urlopen(f"{endpoint}/moto-api/", timeout=1).close()
            return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.1)
    raise RuntimeError(f"moto's server did not answer at {endpoint} in 30 s")


def upload(env: dict[str, str], bucket: str, folder: Path, prefix: str) -> int:
    """Put every file under `folder` into `bucket` under `prefix`; how many."""
    import boto3

    client = boto3.client(
        "s3",
        endpoint_url=env["AWS_ENDPOINT_URL"],
        aws_access_key_id=env["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=env["AWS_SECRET_ACCESS_KEY"],
        region_name=env["AWS_DEFAULT_REGION"],
    )
    client.create_bucket(Bucket=bucket)
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    for path in files:
        key = f"{prefix}/{path.relative_to(folder).as_posix()}"
        client.upload_file(str(path), bucket, key)
    return len(files)
