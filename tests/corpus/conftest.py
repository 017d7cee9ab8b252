"""The real inspect_evals 0.26.0 source, fetched once per session through ``pypi:``.

Set EMPTY_MIGRATE_CORPUS to an extracted ``inspect_evals-0.26.0`` tree to reuse
one; otherwise the tool's own fetch downloads the sdist into a session cache
(package registries only), which also exercises the real download path.
"""

import os
from pathlib import Path

import pytest

from empty_migrate.corpus import resolve_target

PINNED = "pypi:inspect-evals==0.26.0"


@pytest.fixture(scope="session")
def corpus_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="session")
def inspect_evals_tree(corpus_cache) -> Path:
    if os.environ.get("EMPTY_MIGRATE_CORPUS"):
        return Path(os.environ["EMPTY_MIGRATE_CORPUS"])
    previous = os.environ.get("EMPTY_MIGRATE_CACHE")
    os.environ["EMPTY_MIGRATE_CACHE"] = str(corpus_cache)
    try:
        return resolve_target(PINNED).path
    finally:
        if previous is None:
            del os.environ["EMPTY_MIGRATE_CACHE"]
        else:
            os.environ["EMPTY_MIGRATE_CACHE"] = previous
