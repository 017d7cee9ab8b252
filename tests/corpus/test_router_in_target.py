"""The router module reads as the target's own code: its ruff config passes it."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from empty_migrate.codemods.install_router.rewrite import router_text
from tests.corpus.conftest import ruff

pytestmark = pytest.mark.corpus

INSTALLED_AT = "src/inspect_evals/utils/empty_response.py"


@pytest.fixture
def target_with_router(inspect_evals_tree: Path, tmp_path: Path) -> Path:
    """A scratch project with the target's ruff config and the router installed."""
    shutil.copy(inspect_evals_tree / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / INSTALLED_AT).parent.mkdir(parents=True)
    (tmp_path / INSTALLED_AT).write_text(router_text())
    return tmp_path


def test_target_pins_the_ruff_we_test_with(inspect_evals_tree):
    pinned = (inspect_evals_tree / ".pre-commit-config.yaml").read_text()
    version = subprocess.run(
        [sys.executable, "-m", "ruff", "--version"], capture_output=True, text=True
    ).stdout.split()[-1]
    assert f"rev: v{version}" in pinned


def test_pristine_target_file_passes_its_own_ruff(inspect_evals_tree):
    check = ruff("check", "src/inspect_evals/utils/scorers.py", cwd=inspect_evals_tree)
    assert check.returncode == 0, check.stdout


def test_router_passes_the_targets_ruff_check(target_with_router):
    check = ruff("check", INSTALLED_AT, cwd=target_with_router)
    assert check.returncode == 0, check.stdout + check.stderr


def test_router_passes_the_targets_ruff_format(target_with_router):
    fmt = ruff("format", "--check", INSTALLED_AT, cwd=target_with_router)
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr
