"""The wheel ships the package, its codemods and registry, and nothing else."""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]

# pip builds the wheel in an isolated environment it installs first: seconds of
# a run on two cores (`pytest -m slow`, which .ci/run runs)
pytestmark = pytest.mark.slow


def build_wheel(out: Path) -> None:
    # built from a copy: a build/ folder left in the checkout would be reused
    source = out / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(
        ROOT / "src",
        source / "src",
        ignore=shutil.ignore_patterns("*.egg-info", "__pycache__"),
    )
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", str(source)]
        + ["-w", str(out)],
        check=True,
    )


@pytest.fixture(scope="module")
def wheel(built_once) -> zipfile.ZipFile:
    [path] = built_once("wheel", build_wheel).glob("empty_migrate-*.whl")
    return zipfile.ZipFile(path)


@pytest.fixture(scope="module")
def wheel_names(wheel) -> set[str]:
    return set(wheel.namelist())


def test_codemods_ship_inside_the_package(wheel_names):
    assert "empty_migrate/codemods/__init__.py" in wheel_names
    assert not any(name.startswith("codemods/") for name in wheel_names)


def test_the_router_the_probe_and_the_fixture_library_ship(wheel_names):
    # audit runs scorers on the fixtures; the emitted target tests are built from them
    assert "empty_migrate/runtime/router.py" in wheel_names
    assert "empty_migrate/runtime/probe.py" in wheel_names
    assert "empty_migrate/testing/provider_outputs/__init__.py" in wheel_names
    assert "empty_migrate/testing/inspect_internals.py" in wheel_names


def test_golden_and_tests_stay_out_of_the_wheel(wheel_names):
    tops = {name.split("/")[0] for name in wheel_names}
    assert not tops & {"golden", "tests", "bench"}


def test_console_script_entry_point(wheel, wheel_names):
    [entry_points] = [n for n in wheel_names if n.endswith("entry_points.txt")]
    text = wheel.read(entry_points).decode()
    assert "empty-migrate = empty_migrate.__main__:run" in text
    # inspect_ai's registry (and so Scout) finds the package's scanner here
    assert "[inspect_ai]\nempty_migrate = empty_migrate.scout._registry" in text


def test_registry_data_ships(wheel_names):
    assert "empty_migrate/registry/evals/xstest.yaml" in wheel_names


def test_the_released_digests_ship(wheel_names):
    assert "empty_migrate/codemods/kit/released.json" in wheel_names


def test_the_version_is_the_package_s_and_the_license_ships(wheel, wheel_names):
    from empty_migrate import __version__

    [metadata] = [n for n in wheel_names if n.endswith(".dist-info/METADATA")]
    text = wheel.read(metadata).decode()
    assert f"\nVersion: {__version__}\n" in text
    assert "\nLicense-Expression: MIT\n" in text
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in wheel_names)
    assert "\nRequires-Dist: rich>=13.3.3\n" in text
