"""Which checkout and which evals a lint covers, from the paths it is given."""

from collections.abc import Iterable, Sequence
from pathlib import Path

from empty_migrate import TYPE_CHECKING
from empty_migrate.errors import EmptyMigrateError
from empty_migrate.target.layout import (
    PACKAGE_MARKER,
    PACKAGE_ROOT,
    enclosing_checkout,
    eval_package_names,
    missing_folder,
)

if TYPE_CHECKING:
    from empty_migrate.registry.loader import Registry


class CheckoutError(EmptyMigrateError):
    """Bad input: not a target checkout, or a path outside it (exit 2)."""


def find_root(paths: Sequence[Path], repo: Path | None, cwd: Path) -> Path:
    """The checkout's root: `repo`, else the folder holding src/inspect_evals.

    Looked for from the first path up (or from `cwd`).

    Raises:
        CheckoutError: If there is none, or a path is missing or outside it.
    """
    if repo is not None:
        root = repo.resolve()
        if problem := missing_folder(root):
            raise CheckoutError(
                f"--repo {repo}: {problem}; pass the root of an inspect_evals checkout"
            )
        if enclosing_checkout(root) != root:
            raise CheckoutError(
                f"--repo {repo}: no {PACKAGE_MARKER} in it; pass the root of an "
                "inspect_evals checkout"
            )
    else:
        start = (cwd / paths[0]).resolve() if paths else cwd.resolve()
        found = enclosing_checkout(start)
        if found is None:
            raise CheckoutError(
                f"{start} is not inside an inspect_evals checkout (no "
                f"{PACKAGE_ROOT} above it): run lint in one, or pass --repo ROOT"
            )
        root = found
    for path in paths:
        _check_inside((cwd / path).resolve(), path, root)
    return root


def _check_inside(resolved: Path, given: Path, root: Path) -> None:
    if not resolved.exists():
        raise CheckoutError(f"{given}: no such file or folder")
    if not resolved.is_relative_to(root):
        raise CheckoutError(
            f"{given} is outside the checkout {root}: lint paths inside it"
        )


def evals_of(
    root: Path, paths: Iterable[Path], cwd: Path, shared_by: dict[str, list[str]]
) -> list[str]:
    """The eval packages the paths touch; every eval if no path is given.

    A path under src/inspect_evals/<eval>/ is that eval; a shared file (under
    utils/, say) is every eval whose registry entry names it (`shared_by`,
    file relative to src/inspect_evals -> evals); a folder is every eval under
    it. Other files (tests, docs) hold no scorer of an eval.
    """
    every = eval_package_names(root)
    given = [(cwd / path).resolve().relative_to(root) for path in paths]
    if not given:
        return every
    chosen: dict[str, None] = {}
    package = PACKAGE_ROOT.parts
    for relative in given:
        parts = relative.parts
        if parts == package[: len(parts)]:  # the root, src/ or src/inspect_evals
            return every
        if parts[: len(package)] != package:
            continue
        inner = Path(*parts[len(package) :])
        if inner.parts[0] in every:
            chosen[inner.parts[0]] = None
        for name in _sharers(inner.as_posix(), shared_by):
            chosen[name] = None
    return list(chosen)


def _sharers(inner: str, shared_by: dict[str, list[str]]) -> list[str]:
    return [
        name
        for file, names in shared_by.items()
        if file == inner or file.startswith(inner.rstrip("/") + "/")
        for name in names
    ]


def shared_files(registry: "Registry") -> dict[str, list[str]]:
    """Each file a registry entry names outside its own package, with its evals."""
    shared: dict[str, list[str]] = {}
    for name, text in registry.texts.items():
        if "utils/" not in text:  # only then read the entry
            continue
        entry = registry.get(name)
        for file in [s.file for s in entry.scorers] + [h.file for h in entry.helpers]:
            if not file.startswith(f"{name}/"):
                shared.setdefault(file, []).append(name)
    return shared
