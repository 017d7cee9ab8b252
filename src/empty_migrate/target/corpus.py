"""Find the target repository: a checkout, or a pinned inspect_evals release.

``--repo PATH`` names a checkout of inspect_evals (or a fork). ``--repo
pypi:inspect-evals==VERSION`` downloads that version's source archive from the
package index, checked against the index's sha256 and never built
(`empty_migrate.target.release`), extracts it into the user cache and makes
it a git repository with one initial commit, so later steps can branch from
it. Re-runs reuse the cache.
Nothing half-extracted is ever left in the cache: the tree is built in a
scratch folder and moved into place only when complete. A cached release is
read-only to migrations (see `Target.cached`). The version must be a PEP 440
version: it names the cache folder and the archive looked for.

The fetched tree carries no digest of its own, unlike the other things the
cache keeps: it is built once, whole (the source marker is written last, and
the tree moved into place in one rename), and as a git repository its commit
already is the digest of its files, so ``git status`` in it shows any damage.
Checking that on every run would cost a git process or a read of 150 MB, more
than a one-eval run's own work.

Extraction uses tarfile's ``data`` filter (no path outside the folder, no
link leaving it, no device, no special permission) and refuses an archive
holding more than `MAX_TREE_FILES` members or `MAX_TREE_BYTES` in all.
"""

import importlib.util
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from empty_migrate.errors import EmptyMigrateError
from empty_migrate.target.cache import RELEASE, cache_path, checked_version
from empty_migrate.target.layout import (
    PACKAGE_MARKER,
    enclosing_checkout,
    missing_folder,
)

if TYPE_CHECKING:
    import tarfile

DEFAULT_SPEC = "pypi:inspect-evals==0.26.0"
SOURCE_MARKER = Path(".git/empty-migrate-source")
_AUTHOR = ("empty-migrate", "empty-migrate@localhost")
MAX_TREE_FILES = 200_000
"""The most members a release archive may hold: 0.26.0's holds about 4,000."""
MAX_TREE_BYTES = 4 << 30
"""The most bytes a release archive may unpack to: 0.26.0's unpacks to 101 MB."""


class CorpusError(EmptyMigrateError):
    """The target repository cannot be had; the message says what to do."""


@dataclass(frozen=True)
class Target:
    """The resolved target repository and how it was chosen."""

    path: Path
    spec: str
    notice: str | None = None
    cached: bool = False
    """A release in the cache: migrations may read it, never write into it."""


Notify = Callable[[str], None]


def writable_copy(release: Path) -> str:
    """How to get a checkout to write into from the cached `release` (a git repo).

    ``git clone`` makes a copy of its own (the cache is shared, and kept as
    fetched); a clone of inspect_evals itself, or the checkout a command runs
    in, does as well.
    """
    return (
        f"make a checkout of your own with `git clone {release} COPY` (or clone "
        "inspect_evals) and pass --repo COPY"
    )


def resolve_target(
    spec: str | None, cwd: Path | None = None, on_fetch: Notify | None = None
) -> Target:
    """Resolve ``--repo``: a path, ``pypi:inspect-evals==V``, or the default.

    Without a spec, the checkout containing `cwd` is used if there is one,
    otherwise the pinned release (and the notice says so). `on_fetch` hears
    each step of a first fetch (the cache is filled once; it takes a while).
    """
    if spec is None:
        checkout = enclosing_checkout(cwd or Path.cwd())
        if checkout is not None:
            return Target(checkout, str(checkout))
        notice = f"not in an inspect_evals checkout and no --repo: using {DEFAULT_SPEC}"
        tree = fetch_release(_version(DEFAULT_SPEC), on_fetch)
        return Target(tree, DEFAULT_SPEC, notice, cached=True)
    if spec.startswith("pypi:"):
        return Target(fetch_release(_version(spec), on_fetch), spec, cached=True)
    path = Path(spec).expanduser().resolve()
    if problem := missing_folder(path):
        raise CorpusError(
            f"--repo {spec}: {problem}; pass the folder of an inspect_evals "
            "checkout, or pypi:inspect-evals==VERSION"
        )
    if not (path / PACKAGE_MARKER).is_file():
        raise CorpusError(
            f"{spec} is not an inspect_evals tree (no {PACKAGE_MARKER}); pass --repo "
            "with a checkout of inspect_evals or pypi:inspect-evals==VERSION"
        )
    return Target(path, spec)


def _version(spec: str) -> str:
    requirement = spec.removeprefix("pypi:")
    name, _, text = requirement.partition("==")
    if name.replace("_", "-").lower() != "inspect-evals" or not text.strip():
        raise CorpusError(
            f"--repo {spec!r}: expected pypi:inspect-evals==VERSION, e.g. "
            f"{DEFAULT_SPEC}"
        )
    version = checked_version(text)
    if version is None:
        raise CorpusError(
            f"--repo {spec!r}: {text!r} is not a version; expected "
            f"pypi:inspect-evals==VERSION, e.g. {DEFAULT_SPEC}"
        )
    return version


def fetch_release(version: str, on_fetch: Notify | None = None) -> Path:
    """The cached git tree of one inspect_evals release, fetched if missing.

    Raises:
        CacheError: If `version` would not name a folder inside the cache.
        CorpusError: If the release cannot be fetched; the message says why.
    """
    final = cache_path(f"{RELEASE}{version}")
    if (final / SOURCE_MARKER).is_file():
        return final
    notify = on_fetch or (lambda message: None)
    notify(
        f"fetching inspect-evals=={version} into {final} (once; later runs reuse it)"
    )
    final.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".fetch-{version}-", dir=final.parent))
    try:
        archive = _download(version, scratch / "download", notify)
        notify(f"extracting {archive.name} ({archive.stat().st_size // 1024} KB)")
        tree = _extract(archive, scratch / "tree")
        notify("committing the tree to a new git repository")
        _commit(tree, version)
        if final.exists():
            shutil.rmtree(final)
        os.replace(tree, final)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return final


def _download(version: str, into: Path, notify: Notify) -> Path:
    # imported here: only a first fetch talks to the package index
    from empty_migrate.target import release

    try:
        pip: list[str] | None = pip_command()
    except CorpusError:  # without pip, its PIP_* variables still name the index
        pip = None
    try:
        settings = release.index_settings(pip)
        sdist = release.find_sdist(version, settings)
        notify(f"downloading {sdist.filename} from the package index")
        return release.download_sdist(sdist, into, settings)
    except release.ReleaseError as error:
        raise CorpusError(str(error)) from None


def pip_command() -> list[str]:
    """This interpreter's pip, else one on the PATH."""
    if importlib.util.find_spec("pip") is not None:
        return [sys.executable, "-m", "pip"]
    found = shutil.which("pip") or shutil.which("pip3")
    if found is None:
        raise CorpusError(
            "fetching a release needs pip, which this environment lacks: install it "
            "(python -m ensurepip), or pass --repo PATH to a local checkout"
        )
    return [found]


def _extract(archive: Path, into: Path) -> Path:
    import tarfile

    try:
        with tarfile.open(archive) as tar:
            _check_size(archive.name, tar.getmembers())
            tar.extractall(into, filter="data")
    except (tarfile.TarError, EOFError, OSError) as error:
        raise CorpusError(
            f"{archive.name} is corrupt ({_unreadable(error)}); run again to "
            "re-download"
        ) from None
    roots = [p for p in into.iterdir() if p.is_dir()]
    if len(roots) != 1 or not (roots[0] / PACKAGE_MARKER).is_file():
        raise CorpusError(f"{archive.name} does not hold an inspect_evals tree")
    return roots[0]


def _unreadable(error: Exception) -> str:
    """Why an archive could not be unpacked, in a few words on one line."""
    import tarfile

    if isinstance(error, tarfile.ReadError):  # its text lists every method tried
        return "not a readable .tar.gz"
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def _check_size(name: str, members: "list[tarfile.TarInfo]") -> None:
    """Refuse an archive too large to be a release of inspect_evals."""
    total = sum(member.size for member in members if member.isfile())
    if len(members) > MAX_TREE_FILES or total > MAX_TREE_BYTES:
        raise CorpusError(
            f"{name} holds {len(members):,} entries, {total >> 20:,} MB in all, more "
            f"than a release may ({MAX_TREE_FILES:,} entries, {MAX_TREE_BYTES >> 20:,} "
            "MB); pass --repo PATH to a local checkout"
        )


def _commit(tree: Path, version: str) -> None:
    from git import Actor, Repo  # only a fetch needs GitPython (slow to import)

    repo = Repo.init(tree)
    repo.git.add(A=True)
    message = f"inspect-evals {version}, from its source distribution"
    author = Actor(*_AUTHOR)
    repo.index.commit(message, author=author, committer=author)
    repo.close()
    # written last: its presence means the cached tree is complete
    (tree / SOURCE_MARKER).write_text(f"pypi:inspect-evals=={version}\n")
