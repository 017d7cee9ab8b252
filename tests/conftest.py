"""Fixtures every test folder may use; the helpers behind them are modules.

``tests/demo.py`` holds the demo target tree and registry (the ``demo``
fixture), ``tests/outcomes.py`` one model output per outcome (the
``outcome_output`` fixture). ``built_once`` shares an expensive, read-only
build (a wheel, an eval's logs, a campaign) between the tests of a run.

Nothing heavy is imported at the top: pytest-xdist's controller process loads
this file too, and runs no test.
"""

import fcntl
import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest


@pytest.fixture
def demo(tmp_path):
    """An empty demo target: ``tmp_path/repo`` and its registry ``tmp_path/registry``.

    A `tests.demo.DemoTree`; imported here, not above: ``tests/in_target``
    runs under this conftest in the target's environment, which needs none of it.
    """
    from tests.demo import DemoTree

    return DemoTree.create(tmp_path)


@pytest.fixture(scope="session")
def built_once(tmp_path_factory) -> Callable[[str, Callable[[Path], None]], Path]:
    """``built_once(name, build)``: a folder that `build` fills once in a run.

    pytest-xdist's workers share it (the first to ask builds it, under a file
    lock; the others wait for it), where a module-scoped fixture would be
    built again by each worker that runs a test of the module. Treat the
    folder as read-only: copy what a test changes.
    """
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's folder; each worker has one below it

    def get(name: str, build: Callable[[Path], None]) -> Path:
        folder = root / f"built-{name}"
        with (root / f"built-{name}.lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (folder / ".built").exists():
                shutil.rmtree(folder, ignore_errors=True)
                folder.mkdir()
                build(folder)
                (folder / ".built").touch()
        return folder

    return get


@pytest.fixture
def outcome_output():
    """`outcome -> ModelOutput`: one plain output per outcome (tests/outcomes.py)."""
    from empty_migrate.runtime.router import Outcome
    from tests.outcomes import OUTCOME_EXAMPLES

    def build(outcome: str):
        return OUTCOME_EXAMPLES[Outcome(outcome)]()

    return build


def pytest_addoption(parser):
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite golden/*/.after files from the codemods' output, and list them; "
        "rewrite the docs' generated tables and cheap figures (docs/figures.py)",
    )
    parser.addoption(
        "--add-released",
        action="store_true",
        help="add the digests of the texts the package generates today to "
        "src/empty_migrate/codemods/kit/released.json",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """One process, not pytest-xdist's workers, where parallel runs would race.

    ``--update-golden`` and ``--add-released`` rewrite files; the corpus
    checks share session fixtures (the fetched release, the migrated tree,
    the target's environment) that each worker would build again, into the
    same cache.
    Runs before pytest-xdist's own hook reads ``-n``.
    """
    selects_corpus = re.search(r"(?<!not )\bcorpus\b", config.option.markexpr or "")
    writes = config.getoption("--update-golden") or config.getoption("--add-released")
    if writes or selects_corpus:
        if getattr(config.option, "numprocesses", None):
            config.option.numprocesses = 0
