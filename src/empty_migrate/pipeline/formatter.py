"""The target's formatter: Python text as the target's own ruff leaves it.

Every rewritten file is formatted by the ruff the target pins, with the
target's configuration (isort, then format), in one batch per run: two ruff
processes over a scratch tree that mirrors the target's package paths, rather
than a process per file.
"""

import functools
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from empty_migrate.target.ruff import Ruff, ruff_for


class FormatterError(Exception):
    """The target's formatter could not run; the message says why."""


class Formatter:
    """Formats Python text as the target's ruff does (isort, then format).

    The ruff is the version the target pins, with the target's configuration
    (see `empty_migrate.target.ruff`); it is chosen on first use.
    """

    def __init__(self, repo: Path) -> None:
        self.repo = repo

    @functools.cached_property
    def ruff(self) -> Ruff:
        """The ruff that formats, and a notice if it is not the pinned one."""
        return ruff_for(self.repo)

    def format(self, text: str, path: str) -> str:
        """The text as the target's isort fix and ruff format leave it."""
        return self.format_all({path: text})[path]

    def format_all(self, texts: dict[str, str]) -> dict[str, str]:
        """Format many files with two ruff runs in all (a process per file is slow).

        The files are written into a scratch tree beside a copy of the target's
        ruff configuration, so paths, first-party detection and per-file rules
        are the target's own.
        """
        if not texts:
            return {}
        with tempfile.TemporaryDirectory(prefix="empty-migrate-") as scratch:
            root = Path(scratch)
            for config in ("pyproject.toml", "ruff.toml", ".ruff.toml"):
                if (self.repo / config).is_file():
                    shutil.copy(self.repo / config, root / config)
            self._mirror_packages(root, texts)
            for path, text in texts.items():
                (root / path).parent.mkdir(parents=True, exist_ok=True)
                (root / path).write_text(text, encoding="utf-8")
            self._ruff(["check", "--select", "I", "--fix", "--quiet"], root, texts)
            self._ruff(["format", "--quiet"], root, texts)
            return {p: (root / p).read_text(encoding="utf-8") for p in texts}

    def _mirror_packages(self, root: Path, texts: dict[str, str]) -> None:
        # isort calls an import first-party when its module's path exists under
        # a `src` root, or when it is in the formatted file's own package, so
        # the scratch tree needs those paths (not their content): empty
        # stand-ins for each imported module and for the packages' __init__.py
        packages = {package for path in texts for package in Path(path).parents}
        for package in packages:
            self._mirror(root, package / "__init__.py")
        modules = set().union(*map(_imported_modules, texts.values()))
        packages_seen: dict[tuple[str, ...], bool] = {}
        for module in sorted(modules):
            parts = tuple(module.split("."))
            for depth in range(1, len(parts) + 1):  # a package before its modules
                prefix = parts[:depth]
                if prefix not in packages_seen:
                    packages_seen[prefix] = self._mirror_prefix(root, prefix)
                if not packages_seen[prefix]:
                    break  # a module, or nothing of the target's: nothing deeper

    def _mirror_prefix(self, root: Path, prefix: tuple[str, ...]) -> bool:
        """Mirror one prefix of an imported module; whether it is a package."""
        relative = Path("src", *prefix)
        if not (self.repo / relative).is_dir():
            self._mirror(root, relative.with_suffix(".py"))
            return False
        (root / relative).mkdir(parents=True, exist_ok=True)
        self._mirror(root, relative / "__init__.py")
        return True

    def _mirror(self, root: Path, relative: Path) -> bool:
        """Create an empty stand-in for a file that exists in the target."""
        if not (self.repo / relative).is_file():
            return False
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).touch()
        return True

    def _ruff(self, args: list[str], root: Path, texts: dict[str, str]) -> None:
        # --force-exclude off: a migrated file must be formatted even if excluded
        command = [*self.ruff.command, *args, "--no-cache", *texts]
        try:
            run = subprocess.run(command, capture_output=True, text=True, cwd=root)
        except OSError as error:
            raise FormatterError(f"cannot run ruff ({error})") from None
        if run.returncode not in (0, 1):
            last = (run.stderr.strip().splitlines() or ["no output"])[-1]
            raise FormatterError(f"ruff {args[0]} failed: {last}")


_FROM_IMPORT = re.compile(r"^[ \t]*from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^\n#;]+)", re.M)


def _imported_modules(text: str) -> set[str]:
    """The absolute modules a file imports (a superset: lines in strings count)."""
    modules = set(_FROM_IMPORT.findall(text))
    for names in _IMPORT.findall(text):
        modules |= {part.split()[0] for part in names.split(",") if part.split()}
    return modules
