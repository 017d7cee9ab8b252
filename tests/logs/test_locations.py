"""Remote log locations: their names, their order, and the one line for each failure.

The network paths themselves run against a real S3 server process in
``test_logs_on_s3.py`` (slow); these are the rules around them.
"""

from pathlib import Path

import pytest
from botocore.exceptions import ClientError, NoCredentialsError

from empty_migrate.logs.locations import (
    file_name,
    is_remote,
    local_copy,
    path_order,
    suffix,
    unreachable,
)


def test_a_location_with_a_scheme_is_remote_and_named_by_its_key():
    assert is_remote("s3://bucket/logs/a.eval")
    assert not is_remote("logs/a.eval") and not is_remote(Path("s3:/bucket"))
    assert file_name("s3://bucket/logs/a.eval") == "a.eval"
    assert suffix("s3://bucket/logs/a.eval") == ".eval"
    assert suffix("s3://bucket/logs.json/readme") == ""


def test_keys_sort_as_local_paths_do():
    # "-" sorts before "/" as text, after it as a path's parts
    parts = ["a-b/x.eval", "a/x.eval", "a/b/y.json", "a.eval", "A/z.eval"]
    by_path = [str(p) for p in sorted(map(Path, parts))]
    keys = sorted((f"s3://bucket/{p}" for p in parts), key=path_order)
    assert [k.removeprefix("s3://bucket/") for k in keys] == by_path


def client_error(code: str) -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": "m"}}, "GetObject")


@pytest.mark.parametrize(
    ("error", "line"),
    [
        (
            client_error("InvalidAccessKeyId"),
            "s3://b/a.eval: access refused (InvalidAccessKeyId); "
            "check the credentials the environment gives",
        ),
        (
            PermissionError("Forbidden"),
            "s3://b/a.eval: access refused (Forbidden); "
            "check the credentials the environment gives",
        ),
        (client_error("NoSuchBucket"), "s3://b/a.eval: no such file"),
        (FileNotFoundError("b/a.eval"), "s3://b/a.eval: no such file"),
        (
            NoCredentialsError(),
            "s3://b/a.eval: no credentials found; set them as for the AWS command "
            "line (AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)",
        ),
        (
            ConnectionError("Connection refused\nmore"),
            "s3://b/a.eval cannot be read: Connection refused",
        ),
    ],
)
def test_each_failure_is_one_line_that_says_what_to_do(error, line):
    assert unreachable("s3://b/a.eval", error) == line


def test_a_local_log_is_read_in_place(tmp_path):
    log = tmp_path / "a.eval"
    log.write_bytes(b"x")
    with local_copy(str(log)) as path:
        assert path == log
