"""The real inspect_evals 0.26.0 source distribution, fetched once per session.

Set EMPTY_MIGRATE_CORPUS to an extracted ``inspect_evals-0.26.0`` tree to reuse
one; otherwise pip downloads the sdist (package registries only).
"""

import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

CORPUS = "inspect-evals==0.26.0"


@pytest.fixture(scope="session")
def inspect_evals_tree(tmp_path_factory) -> Path:
    if os.environ.get("EMPTY_MIGRATE_CORPUS"):
        return Path(os.environ["EMPTY_MIGRATE_CORPUS"])
    download = tmp_path_factory.mktemp("sdist")
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
        + ["--no-binary", ":all:", CORPUS, "-d", str(download)],
        check=True,
    )
    [archive] = download.glob("inspect_evals-*.tar.gz")
    with tarfile.open(archive) as tar:
        tar.extractall(download, filter="data")
    [tree] = [p for p in download.iterdir() if p.is_dir()]
    return tree
