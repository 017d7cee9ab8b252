"""The project's metadata: what it imports is declared, its version written once."""

import importlib.util
import re
import subprocess
import sys
import tomllib
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

import empty_migrate

ROOT = Path(__file__).parents[1]
SRC = ROOT / "src" / "empty_migrate"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

COMES_WITH = {"pydantic_core": "pydantic"}
"""Imported modules whose distribution comes through another: pydantic pins its core
exactly, and `entries/schema.py` uses the core's schema API that pydantic
documents for custom types, so declaring it apart could only conflict."""


IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(\w+)[\w.]*[ \t]+import|import[ \t]+(\w+))", re.M
)
"""An import statement's first name (parsing every module costs seconds)."""


def imported_top_names() -> set[str]:
    """Top-level names the package imports that this environment has.

    A line that only looks like an import (in code the package writes into the
    target, say) names a package the target has and this environment does not:
    a name with no module here is left out.
    """
    names: set[str] = set()
    for path in SRC.rglob("*.py"):
        for match in IMPORT.finditer(path.read_text(encoding="utf-8")):
            names.add(match[1] or match[2])
    names -= set(sys.stdlib_module_names) | {"empty_migrate", "__future__"}
    return {name for name in names if importlib.util.find_spec(name) is not None}


def declared() -> set[str]:
    project = PYPROJECT["project"]
    texts = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        texts += extra
    return {canonicalize_name(Requirement(text).name) for text in texts}


def top_names_of(declared_names: set[str]) -> dict[str, str]:
    """The top-level names the installed declared distributions provide."""
    provided: dict[str, str] = {}
    for name in declared_names:
        try:
            files = distribution(name).files or []
        except PackageNotFoundError:  # an extra this environment lacks
            continue
        for file in files:
            top = file.parts[0].removesuffix(".py")
            if not top.endswith((".dist-info", ".data")) and top != "..":
                provided.setdefault(top, name)
    return provided


def test_every_distribution_the_package_imports_is_declared():
    imported = imported_top_names()
    provided = top_names_of(declared())
    undeclared = imported - set(provided) - set(COMES_WITH)
    assert undeclared == set()
    assert "rich" in imported  # the check sees imports made only where used


def test_the_version_is_written_only_in_the_package():
    assert "version" not in PYPROJECT["project"]
    assert "version" in PYPROJECT["project"]["dynamic"]
    attr = PYPROJECT["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "empty_migrate.__version__"
    assert re.fullmatch(r"\d+\.\d+\.\d+", empty_migrate.__version__)


def test_the_license_file_is_the_license_pyproject_names():
    assert PYPROJECT["project"]["license"] == "MIT"
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 the empty-migrate authors\n" in text


def test_the_changelog_has_an_unreleased_section():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "\n## [Unreleased]\n" in text
    released = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", text, flags=re.MULTILINE)
    # a released section is never newer than the package's version
    assert all(Version(v) <= Version(empty_migrate.__version__) for v in released)


ABSENT_DOCUMENTS = re.compile(
    r"POLICY-SPEC|CORPUS-SHAPES|PROVIDER-FACTS|TARGET-TESTS|STYLE\.md|\.\./shared/"
    r"|\bseed 0\d\d\b|Survey gap|Survey §"
)
"""Names of documents the project was once written from, which it does not hold."""

TEXT_SUFFIXES = (".py", ".md", ".yaml", ".yml", ".toml", ".txt", ".json", "run")
"""What people read: code, docs, entries, settings (not the logs' binary data)."""

NAMES_THEM_TO_REFUSE_THEM = {"tests/test_house.py", "tests/codemods/test_released.py"}


def test_no_file_cites_a_document_the_repository_does_not_hold():
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    citing = [
        name
        for name in tracked.split("\0")
        if name
        and name not in NAMES_THEM_TO_REFUSE_THEM
        and name.endswith(TEXT_SUFFIXES)
        and (ROOT / name).is_file()
        and ABSENT_DOCUMENTS.search((ROOT / name).read_text("utf-8", errors="replace"))
    ]
    assert citing == []
