"""The target's markdown and changelog checks accept what the migration writes.

inspect_evals checks its markdown in pre-commit (mdformat with six plugins,
then markdownlint-cli's ``markdownlint-fix``) and its changelogs with two
scripts of its own (``tools/check_changelog.py``,
``tools/check_unlisted_evals.py``; ``make check`` runs all four). pre-commit
cannot fetch hook repositories here, so the tools are installed from their
package registries at the versions the target's ``.pre-commit-config.yaml``
pins: mdformat into a venv, markdownlint-cli with npm, each into a folder named
for its pins (set ``EMPTY_MIGRATE_CHECK_TOOLS`` to a folder to keep them
between sessions). Each runs in check mode on the markdown the migration
changed, selected by its hook's own ``files``/``exclude`` patterns, and on the
same files of the pristine tree: a finding already there is not ours.
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from empty_migrate.target.own_tests import OFFLINE
from empty_migrate.target.yaml_files import read_yaml

pytestmark = pytest.mark.corpus

MDFORMAT_REPO = "https://github.com/hukkin/mdformat"
MARKDOWNLINT_REPO = "https://github.com/igorshubovych/markdownlint-cli"
SCRIPTS = ["tools/check_changelog.py", "tools/check_unlisted_evals.py"]
FRAGMENTS = "changelog.d/"
_NOT_FORMATTED = re.compile(r'^Error: File "(.+)" is not formatted\.$', re.M)


@dataclass(frozen=True)
class Hook:
    """One pre-commit hook of the target: its repository's pin and its file filter."""

    rev: str
    files: str
    exclude: str
    dependencies: tuple[str, ...]

    def selects(self, path: str) -> bool:
        """Whether pre-commit passes `path` (repository-relative, a .md) to the hook."""
        # pre-commit's defaults, matched with re.search as pre-commit does
        return bool(re.search(self.files or "", path)) and not re.search(
            self.exclude or "^$", path
        )


def hook_of(tree: Path, repo: str, hook_id: str) -> Hook:
    """The hook `hook_id` of `repo` in the target's ``.pre-commit-config.yaml``."""
    config = read_yaml(tree / ".pre-commit-config.yaml")
    for entry in config["repos"]:
        for hook in entry.get("hooks", []) if entry["repo"] == repo else []:
            if hook["id"] == hook_id:
                return Hook(
                    entry["rev"],
                    hook.get("files", ""),
                    hook.get("exclude", ""),
                    tuple(hook.get("additional_dependencies", [])),
                )
    raise AssertionError(f"{tree} pins no {hook_id} hook from {repo}")


@pytest.fixture(scope="session")
def check_tools(tmp_path_factory) -> Path:
    """Where the pinned tools are installed, one folder per set of pins."""
    root = os.environ.get("EMPTY_MIGRATE_CHECK_TOOLS")
    return Path(root) if root else tmp_path_factory.mktemp("check-tools")


@pytest.fixture(scope="session")
def mdformat_hook(inspect_evals_tree) -> Hook:
    return hook_of(inspect_evals_tree, MDFORMAT_REPO, "mdformat")


@pytest.fixture(scope="session")
def markdownlint_hook(inspect_evals_tree) -> Hook:
    return hook_of(inspect_evals_tree, MARKDOWNLINT_REPO, "markdownlint-fix")


@pytest.fixture(scope="session")
def mdformat(mdformat_hook, check_tools) -> Path:
    """The mdformat executable, with the plugins at the hook's pins."""
    requirements = [f"mdformat=={mdformat_hook.rev}", *mdformat_hook.dependencies]
    folder = check_tools / f"mdformat-{_key(requirements)}"

    def install() -> None:
        install_step([sys.executable, "-m", "venv", str(folder)])
        pip = [str(folder / "bin" / "python"), "-m", "pip", "install", "--quiet"]
        install_step([*pip, *requirements])

    installed(folder, requirements, install)
    return folder / "bin" / "mdformat"


@pytest.fixture(scope="session")
def markdownlint(markdownlint_hook, check_tools) -> Path:
    """The markdownlint executable at the hook's pin (skips without node and npm)."""
    if not (shutil.which("node") and shutil.which("npm")):
        pytest.skip("markdownlint-cli needs node and npm, and they are not on PATH")
    package = f"markdownlint-cli@{markdownlint_hook.rev.removeprefix('v')}"
    folder = check_tools / package.replace("@", "-")
    npm = ["npm", "install", "--prefix", str(folder), "--no-audit", "--no-fund"]
    installed(folder, [package], lambda: install_step([*npm, package]))
    return folder / "node_modules" / ".bin" / "markdownlint"


def installed(folder: Path, requirements: list[str], install) -> None:
    """Run `install` into `folder` unless a finished install of `requirements` is there.

    The stamp is written last, so an interrupted install is done again.
    """
    wanted = "\n".join(requirements) + "\n"
    stamp = folder / "empty-migrate-requirements.txt"
    if stamp.is_file() and stamp.read_text() == wanted:
        return
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    install()
    stamp.write_text(wanted)


def install_step(command: list[str]) -> None:
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 0, f"{' '.join(command)}:\n{result.stderr[-2000:]}"


def _key(requirements: list[str]) -> str:
    return hashlib.sha256("\n".join(requirements).encode()).hexdigest()[:12]


@pytest.fixture(scope="module")
def changed_markdown(migrated_tree, inspect_evals_tree) -> list[str]:
    """The .md files the migration wrote or changed, relative to the tree."""
    migrated = migrated_tree[0]
    found = []
    for path in sorted(migrated.rglob("*.md")):
        relative = path.relative_to(migrated).as_posix()
        before = inspect_evals_tree / relative
        if not before.is_file() or before.read_bytes() != path.read_bytes():
            found.append(relative)
    readmes = [p for p in found if p.endswith("/README.md")]
    assert len(readmes) >= 100, found  # a changelog entry per migrated eval
    return found


def not_formatted(mdformat: Path, tree: Path, paths: list[str]) -> set[str]:
    """The `paths` that ``mdformat --check`` would change, run in `tree`."""
    present = [p for p in paths if (tree / p).is_file()]
    if not present:
        return set()
    result = subprocess.run(
        [str(mdformat), "--check", *present], cwd=tree, capture_output=True, text=True
    )
    named = {
        Path(name).relative_to(tree.resolve()).as_posix()
        for name in _NOT_FORMATTED.findall(result.stderr)
    }
    assert result.returncode == (1 if named else 0), result.stderr
    return named


def lint_findings(
    markdownlint: Path, tree: Path, paths: list[str]
) -> Counter[tuple[str, str]]:
    """markdownlint's findings on `paths` in `tree`: (path, finding), no line number."""
    present = [p for p in paths if (tree / p).is_file()]
    if not present:
        return Counter()
    result = subprocess.run(
        [str(markdownlint), "--json", *present],
        cwd=tree,
        capture_output=True,
        text=True,
    )
    findings = json.loads(result.stderr) if result.returncode else []
    assert result.returncode == (1 if findings else 0), result.stderr
    return Counter(map(_finding, findings))


def _finding(found: dict) -> tuple[str, str]:
    # the rule and its detail: line numbers move when an entry is inserted
    parts = [found["ruleNames"][0], found["errorDetail"], found["errorContext"]]
    return found["fileName"], " ".join(str(p) for p in parts if p)


def test_mdformat_leaves_the_changed_markdown_as_it_is(
    mdformat, mdformat_hook, migrated_tree, inspect_evals_tree, changed_markdown
):
    checked = [p for p in changed_markdown if mdformat_hook.selects(p)]
    assert checked  # the hook's patterns leave the eval READMEs in
    new = not_formatted(mdformat, migrated_tree[0], checked)
    # the pristine tree only where needed: each run takes seconds
    new -= not_formatted(mdformat, inspect_evals_tree, sorted(new))
    assert not new, f"mdformat would reformat: {sorted(new)}"


def test_mdformat_leaves_the_changelog_fragments_as_they_are(
    mdformat, migrated_tree, changed_markdown
):
    # the hook skips changelog.d/, but scriv copies the fragments into
    # CHANGELOG.md at release, and the hook checks that
    fragments = [p for p in changed_markdown if p.startswith(FRAGMENTS)]
    assert fragments
    assert not not_formatted(mdformat, migrated_tree[0], fragments)


def test_markdownlint_finds_nothing_new(
    markdownlint, markdownlint_hook, migrated_tree, inspect_evals_tree, changed_markdown
):
    checked = [p for p in changed_markdown if markdownlint_hook.selects(p)]
    assert checked
    new = lint_findings(markdownlint, migrated_tree[0], checked)
    new -= lint_findings(markdownlint, inspect_evals_tree, sorted({p for p, _ in new}))
    assert not new, "markdownlint: " + "; ".join(f"{p}: {w}" for p, w in sorted(new))


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_targets_changelog_scripts_find_nothing_new(
    script, target_env, migrated_tree, inspect_evals_tree
):
    before = script_findings(target_env.python, inspect_evals_tree, script)
    after = script_findings(target_env.python, migrated_tree[0], script)
    assert after <= before, f"{script}: " + "; ".join(sorted(after - before))


def script_findings(python: Path, tree: Path, script: str) -> set[str]:
    """What one of the target's check scripts prints, run in `tree` on its source.

    Its closing count (``N checked, ...``) is left out: it counts the evals
    with a bumped version, which the migration adds.
    """
    environ = {**os.environ, **OFFLINE, "PYTHONPATH": str(tree / "src")}
    result = subprocess.run(
        [str(python), script], cwd=tree, env=environ, capture_output=True, text=True
    )
    assert result.returncode in (0, 1) and "Traceback" not in result.stderr, (
        result.stderr[-2000:]
    )
    lines = {line.rstrip() for line in result.stdout.splitlines() if line.strip()}
    return {line for line in lines if not re.match(r"\d+ checked, ", line)}
