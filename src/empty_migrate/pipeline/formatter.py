"""The target's formatter: Python text as the target's own ruff leaves it.

Every rewritten file is formatted by the ruff the target pins, with the
target's configuration (isort, then format), in one batch per run: two ruff
processes over a scratch tree that mirrors the target's package paths, rather
than a process per file.
"""

import functools
import re
import subprocess
import tempfile
from pathlib import Path

from empty_migrate.target.files import outside_tree
from empty_migrate.target.kept import keep, key_of, recall
from empty_migrate.target.ruff import Ruff, ruff_for

_CONFIGS = ("pyproject.toml", "ruff.toml", ".ruff.toml")
"""The target's ruff configuration files, at its root: copied to the scratch tree."""

StandIn = tuple[Path, bool]
"""A path of the scratch tree that the target has (no content), and if a folder."""


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
        are the target's own. What ruff made of a scratch tree is kept in the
        user cache under everything in it (the texts and their paths, the
        stand-ins, the configuration) and the ruff: a run's batches are mostly
        the last run's again, and a kept one needs no scratch tree and no ruff.
        """
        if not texts:
            return {}
        configs = self._configs()
        stand_ins = self._stand_ins(texts)
        # with no configuration of the target's, ruff would read the user's own
        key = self._key(texts, configs, stand_ins) if configs else None
        kept = recall("formatted", key) if key else None
        if isinstance(kept, dict) and list(kept) == list(texts):
            return kept
        formatted = self._format_in_scratch(texts, configs, stand_ins)
        if key:
            keep("formatted", key, formatted)
        return formatted

    def _key(
        self, texts: dict[str, str], configs: dict[str, str], stand_ins: list[StandIn]
    ) -> str:
        """The key of a scratch tree's formatting: all that is in it, and the ruff."""
        parts = [self.ruff.version, *self.ruff.command]
        parts += [f"config {name}\0{text}" for name, text in configs.items()]
        parts += [
            f"{'folder' if folder else 'file'} {path}" for path, folder in stand_ins
        ]
        parts += [f"text {path}\0{text}" for path, text in texts.items()]
        return key_of(*parts)

    def _configs(self) -> dict[str, str]:
        """The target's ruff configuration files at its root, by name.

        Raises:
            FormatterError: If one is reached through a symbolic link: it is
                not read, and formatting without it would not be the target's.
        """
        configs = {}
        for name in _CONFIGS:
            if problem := outside_tree(self.repo, name):
                raise FormatterError(f"{problem}; ruff reads the target's own {name}")
            if (self.repo / name).is_file():
                data = (self.repo / name).read_bytes()
                configs[name] = data.decode("utf-8", "surrogateescape")
        return configs

    def _format_in_scratch(
        self, texts: dict[str, str], configs: dict[str, str], stand_ins: list[StandIn]
    ) -> dict[str, str]:
        with tempfile.TemporaryDirectory(prefix="empty-migrate-") as scratch:
            root = Path(scratch)
            for name, config in configs.items():
                (root / name).write_bytes(config.encode("utf-8", "surrogateescape"))
            for stand_in, folder in stand_ins:
                if folder:
                    (root / stand_in).mkdir(parents=True, exist_ok=True)
                else:
                    (root / stand_in).parent.mkdir(parents=True, exist_ok=True)
                    (root / stand_in).touch()
            for path, text in texts.items():
                (root / path).parent.mkdir(parents=True, exist_ok=True)
                (root / path).write_text(text, encoding="utf-8")
            self._ruff(["check", "--select", "I", "--fix", "--quiet"], root, texts)
            self._ruff(["format", "--quiet"], root, texts)
            return {p: (root / p).read_text(encoding="utf-8") for p in texts}

    def _stand_ins(self, texts: dict[str, str]) -> list[StandIn]:
        # isort calls an import first-party when its module's path exists under
        # a `src` root, or when it is in the formatted file's own package, so
        # the scratch tree needs those paths (not their content): empty
        # stand-ins for each imported module and for the packages' __init__.py
        found: list[StandIn] = []
        packages = {package for path in texts for package in Path(path).parents}
        for package in sorted(packages):  # in one order: they key the kept batch
            found += self._file(package / "__init__.py")
        modules = set().union(*map(_imported_modules, texts.values()))
        packages_seen: dict[tuple[str, ...], bool] = {}
        for module in sorted(modules):
            parts = tuple(module.split("."))
            for depth in range(1, len(parts) + 1):  # a package before its modules
                prefix = parts[:depth]
                if prefix not in packages_seen:
                    packages_seen[prefix] = self._prefix(prefix, found)
                if not packages_seen[prefix]:
                    break  # a module, or nothing of the target's: nothing deeper
        return found

    def _prefix(self, prefix: tuple[str, ...], found: list[StandIn]) -> bool:
        """The stand-ins of a prefix of an imported module; whether it is a package."""
        relative = Path("src", *prefix)
        if not (self.repo / relative).is_dir():
            found += self._file(relative.with_suffix(".py"))
            return False
        found.append((relative, True))
        found += self._file(relative / "__init__.py")
        return True

    def _file(self, relative: Path) -> list[StandIn]:
        """An empty stand-in for a file, if it exists in the target."""
        return [(relative, False)] if (self.repo / relative).is_file() else []

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
