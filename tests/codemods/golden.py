"""Golden cases: the before/after examples that specify each codemod.

A case is either one file, ``golden/<codemod>/<case>.before.py`` with an
optional ``<case>.after.py`` (no ``.after`` means it must come out unchanged)
and an optional ``<case>.yaml`` registry entry; or a folder
``golden/<codemod>/<case>/`` holding ``registry.yaml``, a ``before/`` tree and
an ``after/`` tree of the files expected to change. Paths in the trees are from
the repo root. A single-file case is the module ``src/inspect_evals/demo/
scorer.py`` of an eval named ``demo``; ``golden/<codemod>/registry.yaml`` is
the entry used when a case has none.

A case that expects the codemod to skip the eval holds, instead of an after
file or tree, the reason it expects: ``<case>.skip`` beside a single-file
case, ``<case>/expected.skip`` in a folder case. The reason is the eval's, as
a run reports it: ``<path>: <why>`` for each file skipped, joined by ``; ``.

The router module is generated (``install_router.router_text()``), and so is
the policy tests' fixtures module (``emit_policy_tests.fixtures_text()``), so
no case holds a copy: where a tree has one as the generated text, the file
holds only its placeholder (`PLACEHOLDERS`), and the harness reads it as the
text the codemod generates today.
"""

from dataclasses import dataclass
from pathlib import Path

from empty_migrate.codemods.emit_policy_tests.rewrite import (
    FIXTURES_PATH,
    fixtures_text,
)
from empty_migrate.codemods.install_router.rewrite import ROUTER_PATH, router_text
from tests.demo import EVAL, RUFF_CONFIG, SCORER_PATH, write_files

GOLDEN = Path(__file__).parents[2] / "golden"
SKIP = ".skip"
TREE_SKIP = "expected.skip"
"""The reason file of a folder case."""
ROUTER = f"src/inspect_evals/{ROUTER_PATH}"
GENERATED = "# golden: the router module, as install_router generates it today\n"
"""The whole text of a golden router file that stands for the generated one."""
GENERATED_FIXTURES = (
    "# golden: the fixtures module, as emit_policy_tests generates it today\n"
)
"""The same for the policy tests' shared fixtures module."""
PLACEHOLDERS = {
    ROUTER: (GENERATED, router_text),
    FIXTURES_PATH: (GENERATED_FIXTURES, fixtures_text),
}
"""Generated shared files: path -> (the placeholder stored, the generator)."""


@dataclass(frozen=True)
class GoldenCase:
    """One golden case: its inputs, its expected outputs, and where they live."""

    codemod: str
    name: str
    registry: Path
    before: dict[str, str]
    after: dict[str, str]
    after_root: Path | None = None
    single_after: Path | None = None
    skip_path: Path | None = None
    skip: str | None = None
    """The reason the case expects the codemod to skip with; None: no skip."""

    @property
    def id(self) -> str:
        return f"{self.codemod}/{self.name}"

    def after_path(self, path: str) -> Path | None:
        """Where the expected text of `path` is stored."""
        if self.after_root is not None:
            return self.after_root / path
        return self.single_after if path == SCORER_PATH else None

    def expected(self, path: str) -> str:
        """The expected text of `path`: its after file, else unchanged."""
        return self.after.get(path, self.before.get(path, ""))


def discover(golden: Path = GOLDEN) -> list[GoldenCase]:
    """Every case under `golden`, sorted by codemod and name."""
    cases = []
    for folder in sorted(p for p in golden.iterdir() if p.is_dir()):
        cases += [_single(folder, p) for p in sorted(folder.glob("*.before.py"))]
        cases += [_tree(folder, p) for p in sorted(folder.glob("*/before/"))]
    return cases


TREE_PARTS = {"registry.yaml", "before", "after", TREE_SKIP}
"""What a folder case may hold."""


def orphans(golden: Path = GOLDEN) -> list[Path]:
    """Files under `golden` that belong to no case.

    A single-file case's files are named for its ``.before.py``; a folder case
    holds only `TREE_PARTS`, and no expectation without its ``before/`` tree.
    """
    found = []
    for folder in (p for p in golden.iterdir() if p.is_dir()):
        for path in folder.iterdir():
            stem = path.name.split(".")[0]
            if path.is_file() and path.name != "registry.yaml":
                if not (folder / f"{stem}.before.py").exists():
                    found.append(path)
            elif path.is_dir():
                found += [p for p in path.iterdir() if p.name not in TREE_PARTS]
                if not (path / "before").is_dir():
                    found += [p for p in path.iterdir() if p.name in TREE_PARTS]
    return sorted(found)


def contradictions(golden: Path = GOLDEN) -> list[str]:
    """Cases that expect both a rewrite and a skip."""
    return [case.id for case in discover(golden) if case.after and case.skip]


def _single(folder: Path, before: Path) -> GoldenCase:
    name = before.name.removesuffix(".before.py")
    after = folder / f"{name}.after.py"
    registry = folder / f"{name}.yaml"
    skip = folder / f"{name}{SKIP}"
    text = before.read_text()
    return GoldenCase(
        codemod=folder.name,
        name=name,
        registry=registry if registry.exists() else folder / "registry.yaml",
        before={SCORER_PATH: text},
        after={SCORER_PATH: after.read_text()} if after.exists() else {},
        single_after=after,
        skip_path=skip,
        skip=_reason(skip),
    )


def _tree(folder: Path, before_root: Path) -> GoldenCase:
    case = before_root.parent
    before = _read_tree(before_root)
    after_root = case / "after"
    after = _read_tree(after_root) if after_root.exists() else {}
    skip = case / TREE_SKIP
    return GoldenCase(
        codemod=folder.name,
        name=case.name,
        registry=case / "registry.yaml",
        before=before,
        after=after,
        after_root=after_root,
        skip_path=skip,
        skip=_reason(skip),
    )


def _reason(path: Path) -> str | None:
    """The reason a skip file holds (one line), if the file is there."""
    return path.read_text().removesuffix("\n") if path.is_file() else None


def _read_tree(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): _expanded(p.relative_to(root), p.read_text())
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _expanded(path: Path, text: str) -> str:
    """The text a stored golden file stands for: itself, or a generated module."""
    for shared, (placeholder, generate) in PLACEHOLDERS.items():
        if text == placeholder:
            if path.as_posix() != shared:
                raise ValueError(f"{path}: only {shared} can stand for {placeholder}")
            return generate()
    return text


def _stored(path: str, text: str) -> str:
    """What a golden tree stores for `text` at `path`: never a generated module."""
    if path in PLACEHOLDERS and text == PLACEHOLDERS[path][1]():
        return PLACEHOLDERS[path][0]
    return text


def build_repo(case: GoldenCase, root: Path) -> Path:
    """A scratch inspect_evals-shaped tree holding the case's before files."""
    files = {
        "pyproject.toml": RUFF_CONFIG,
        "src/inspect_evals/__init__.py": "",
        f"src/inspect_evals/{EVAL}/__init__.py": "",
        **case.before,
    }
    return write_files(root / "repo", files)


def update(case: GoldenCase, outputs: dict[str, str], skip: str | None) -> list[Path]:
    """Store what the codemod did as the case's expectations (--update-golden).

    A skip is stored as the case's skip file, and its after files go (a skip
    changes nothing); a rewrite removes the skip file. Returns the files
    written or removed.
    """
    assert case.skip_path is not None
    changed = []
    if skip is not None:
        outputs = {path: case.before.get(path, "") for path in outputs}
        if case.skip != skip:
            case.skip_path.write_text(skip + "\n")
            changed.append(case.skip_path)
    elif case.skip_path.exists():
        case.skip_path.unlink()
        changed.append(case.skip_path)
    return changed + write_after(case, outputs)


def write_after(case: GoldenCase, outputs: dict[str, str]) -> list[Path]:
    """Store the codemod's outputs as the case's after files.

    An output equal to its input removes the after file: unchanged is the
    default expectation. Returns the files written or removed.
    """
    changed = []
    for path, text in outputs.items():
        target = case.after_path(path)
        if target is None:
            raise ValueError(f"{case.id}: the codemod wrote {path}, outside the case")
        if text == case.before.get(path, ""):
            if target.exists():
                target.unlink()
                changed.append(target)
                _prune(target.parent, case.after_root)
        elif not target.exists() or target.read_text() != _stored(path, text):
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(_stored(path, text))
            changed.append(target)
    return changed


def _prune(folder: Path, root: Path | None) -> None:
    """Remove `folder` and its parents up to `root` (included) while empty."""
    if root is None:
        return
    while folder.is_relative_to(root) and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        if folder == root:
            return
        folder = folder.parent
