"""The demo target the tests share: an inspect_evals-shaped tree and its registry.

`DemoTree` writes a small target tree, ``repo/`` (``pyproject.toml`` with a
ruff configuration, which the formatter reads, ``src/inspect_evals/
__init__.py``, and each eval's package), and its registry folder beside it,
``registry/``; it builds the `EvalTarget` a codemod is given, and commits the
tree to a real git repository when a test needs one. The ``demo`` fixture
(``tests/conftest.py``) is one in the test's ``tmp_path``.

`entry` writes a registry entry in the layout of the real ones, from the few
fields a test cares about. The texts below are the evals most tests use: a
task scored by ``choice()`` (`choice_task`), tasks sharing one helper
(`shared_task`), a factory scorer (`DEMO_SCORER`) with its ``eval.yaml`` and
README (`demo_eval_files`).
"""

import difflib
import subprocess
import textwrap
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from empty_migrate.analysis.scan import scan_eval
from empty_migrate.codemods import eval_target
from empty_migrate.codemods.kit.base import EvalTarget
from empty_migrate.registry.loader import load_entry
from empty_migrate.target.corpus import SOURCE_MARKER

EVAL = "demo"
PACKAGE = "src/inspect_evals"
SCORER_PATH = f"{PACKAGE}/{EVAL}/scorer.py"
"""The module of a one-module demo eval, from the repo root."""
TODAY = "2026-11-29"
"""The date the migration writes into changelogs, unless a test says otherwise."""

RUFF_CONFIG = """\
[tool.ruff]
src = ["src"]
target-version = "py311"

[tool.ruff.lint]
select = ["E", "W", "F", "I"]
"""
"""The target's ruff configuration (the formatter's isort and format read it)."""

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "Campaign Test",
    "GIT_AUTHOR_EMAIL": "campaign@example.com",
    "GIT_COMMITTER_NAME": "Campaign Test",
    "GIT_COMMITTER_EMAIL": "campaign@example.com",
}
"""Who commits in a test repository, whatever the machine's git config says."""


def write_files(root: Path, files: Mapping[str, str], dedent: bool = False) -> Path:
    """Write each ``path -> text`` under `root`, making folders; returns `root`."""
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(textwrap.dedent(text) if dedent else text)
    return root


def entry(
    name: str = EVAL,
    *,
    category: str = "qa",
    judge: str = "none",
    output: str = "state.output",
    codemods: Iterable[str] = ("wrap_router",),
    scorer: str | None = None,
    file: str | None = None,
    construct: str = "factory",
    today: str | None = None,
    tasks: Iterable[str] | None = None,
    settings: str = "",
    scorer_settings: str = "",
) -> str:
    """A registry entry for eval `name` with one scorer, as YAML text.

    Args:
        name: The eval, and its one task unless `tasks` says otherwise.
        category: Its category.
        judge: Where its judge runs (``none``, ``scorer``, ``solver``).
        output: Where its scorer reads the model's output.
        codemods: The codemods it lists.
        scorer: The scorer's name; ``<name>_scorer`` for a factory, else `name`.
        file: The scorer's file; ``<name>/scorer.py`` for a factory, else
            ``<name>/<name>.py``.
        construct: The scorer's construct.
        today: What happens to an empty answer today, citing path::symbol.
        tasks: Its tasks; ``[]`` for none.
        settings: More top-level lines, e.g. ``"no_answer_verdict: I\\n"``.
        scorer_settings: More lines of the scorer, indented by four spaces.
    """
    if file is None:
        file = f"{name}/scorer.py" if construct == "factory" else f"{name}/{name}.py"
    scorer = scorer or (f"{name}_scorer" if construct == "factory" else name)
    today = today or f"empty completion -> INCORRECT ({file}::{scorer})"
    task_names = [name] if tasks is None else list(tasks)
    task_lines = "".join(f"  {task}: {{}}\n" for task in task_names)
    return (
        f"category: {category}\n"
        "polarity: neutral\n"
        f"{settings}"
        f"output: {output}\n"
        f"judge: {judge}\n"
        f'today: "{today}"\n'
        f"codemods: [{', '.join(codemods)}]\n"
        + (f"tasks:\n{task_lines}" if task_lines else "")
        + "scorers:\n"
        f"  - name: {scorer}\n"
        f"    file: {file}\n"
        f"    construct: {construct}\n"
        f"{scorer_settings}"
    )


def manual_entry(reason: str, today: str) -> str:
    """The entry of an eval left to a person: ``codemods: manual``."""
    return (
        "category: qa\npolarity: neutral\noutput: state.output\njudge: none\n"
        f'today: "{today}"\ncodemods: manual\ncodemods_reason: {reason}\n'
    )


def choice_task(name: str) -> str:
    """A task module scoring eval `name` with ``choice()``, its own scorer."""
    return f"""\
from inspect_ai import Task, task
from inspect_ai.scorer import choice


@task
def {name}() -> Task:
    return Task(dataset=[], scorer=choice())
"""


def choice_entry(name: str, codemods: Iterable[str] = ("wrap_router",)) -> str:
    """The registry entry of `choice_task`."""
    return entry(
        name,
        construct="task_scorer",
        codemods=codemods,
        today=f"empty completion -> choice() NOANSWER ({name}/{name}.py::{name})",
    )


SHARED_HELPER = """\
from inspect_ai.scorer import Scorer, match, scorer


def shared_scorer() -> Scorer:
    return match()
"""
"""``utils/shared.py``: a scorer helper several evals' tasks call."""


def shared_task(name: str) -> str:
    """A task module of eval `name` scored by `SHARED_HELPER`."""
    return f"""\
from inspect_ai import Task, task

from inspect_evals.utils.shared import shared_scorer


@task
def {name}() -> Task:
    return Task(dataset=[], scorer=shared_scorer())
"""


def shared_entry(name: str, codemods: Iterable[str]) -> str:
    """The registry entry of `shared_task`."""
    return entry(
        name,
        scorer="shared_scorer",
        file="utils/shared.py",
        construct="shared_helper",
        codemods=codemods,
        settings="no_answer_verdict: I\n",
        today="empty completion -> match() INCORRECT (utils/shared.py::shared_scorer)",
    )


def versioned(name: str, title: str, version: str = "2-A", date: str = "2026-01-01"):
    """An eval's ``eval.yaml`` and README with a changelog, as path -> text."""
    package = f"{PACKAGE}/{name}"
    return {
        f"{package}/eval.yaml": f'title: "{title}"\nversion: "{version}"\n',
        f"{package}/README.md": (
            f"# {title}\n\n## Changelog\n\n### [{version}] - {date}\n\n- First.\n"
        ),
    }


DEMO_SCORER = """\
from inspect_ai.scorer import Score, Target, accuracy, scorer
from inspect_ai.solver import TaskState


@scorer(metrics=[accuracy()])
def demo_scorer():
    async def score(state: TaskState, target: Target) -> Score:
        return Score(value=state.output.completion == target.text)

    return score
"""
"""The demo eval's factory scorer, read from ``state.output``."""
DEMO_ENTRY = entry(
    codemods=["wrap_router", "bump_task_version", "changelog"],
    today="empty completion -> INCORRECT with no reason (demo/scorer.py::demo_scorer)",
)
"""The registry entry of `DEMO_SCORER`, with the version bump and changelog."""
DEMO_EVAL_YAML = 'title: Demo\nversion: "3-D"\ntasks:\n  - name: demo\n'
DEMO_README = "# Demo\n\n## Changelog\n\n### [3-D] - 2026-09-14\n\n- Fix a parser.\n"


def demo_eval_files(**replaced: str) -> dict[str, str]:
    """The demo eval's files: its scorer, eval.yaml and README.

    Args:
        replaced: Other text for ``scorer``, ``eval_yaml`` or ``readme``.
    """
    texts = {"scorer": DEMO_SCORER, "eval_yaml": DEMO_EVAL_YAML}
    texts |= {"readme": DEMO_README} | replaced
    return {
        f"{PACKAGE}/{EVAL}/__init__.py": "",
        SCORER_PATH: texts["scorer"],
        f"{PACKAGE}/{EVAL}/eval.yaml": texts["eval_yaml"],
        f"{PACKAGE}/{EVAL}/README.md": texts["readme"],
    }


@dataclass(frozen=True)
class DemoTree:
    """A target tree at ``root/repo`` and its registry folder ``root/registry``."""

    root: Path

    @property
    def repo(self) -> Path:
        return self.root / "repo"

    @property
    def registry(self) -> Path:
        return self.root / "registry"

    @classmethod
    def create(cls, root: Path, files: Mapping[str, str] | None = None) -> "DemoTree":
        """The tree with its ruff configuration, the package root and `files`."""
        tree = cls(root)
        tree.registry.mkdir(parents=True, exist_ok=True)
        tree.write({"pyproject.toml": RUFF_CONFIG, f"{PACKAGE}/__init__.py": ""})
        tree.write(files or {})
        return tree

    def write(self, files: Mapping[str, str], dedent: bool = False) -> Path:
        """Write files into the tree (paths from the repo root)."""
        return write_files(self.repo, files, dedent)

    def add_eval(
        self, name: str, modules: Mapping[str, str], registry_entry: str | None = None
    ) -> None:
        """Eval `name`: its package (``__init__.py`` and `modules`) and its entry."""
        package = f"{PACKAGE}/{name}"
        files = {f"{package}/__init__.py": ""}
        files |= {f"{package}/{module}": text for module, text in modules.items()}
        self.write(files)
        if registry_entry is not None:
            self.register(name, registry_entry)

    def add_demo_eval(self, **replaced: str) -> "DemoTree":
        """The demo eval (`demo_eval_files`, with `replaced`) and `DEMO_ENTRY`."""
        self.write(demo_eval_files(**replaced))
        self.register(EVAL, DEMO_ENTRY)
        return self

    def register(self, name: str, registry_entry: str) -> Path:
        """Write eval `name`'s registry entry."""
        path = self.registry / f"{name}.yaml"
        path.write_text(registry_entry)
        return path

    def target(
        self, name: str = EVAL, today: str = TODAY, changed_by: Iterable[str] = ()
    ) -> EvalTarget:
        """Eval `name` as a codemod is given it, its entry loaded as a run does."""
        loaded, problems = load_entry(self.registry / f"{name}.yaml")
        assert loaded is not None and not problems, problems
        scan = scan_eval(self.repo, name)
        return eval_target(name, loaded, scan, self.repo, today, changed_by)

    def commit(self, message: str = "Initial commit") -> Path:
        """Make the tree a git repository on ``main`` with everything committed."""
        git(self.repo, "init", "-q", "-b", "main")
        git(self.repo, "add", "-A")
        git(self.repo, "commit", "-qm", message)
        return self.repo


def scorer_target(root: Path, source: str, registry: str) -> EvalTarget:
    """The demo eval with one scorer module, `source`, and a registry entry.

    The tree is `root` itself (no ``pyproject.toml``); the entry is written to
    ``root/registry.yaml``.
    """
    (root / "registry.yaml").write_text(registry)
    loaded, problems = load_entry(root / "registry.yaml")
    assert loaded is not None and not problems, problems
    write_files(root, {SCORER_PATH: source})
    return eval_target(EVAL, loaded, scan_eval(root, EVAL), root)


def fake_cached_release(cache: Path, version: str) -> Path:
    """A release of inspect_evals as the tool's cache holds it once fetched."""
    tree = cache / f"inspect-evals-{version}"
    write_files(tree, {f"{PACKAGE}/__init__.py": ""})
    write_files(tree, {SOURCE_MARKER: f"pypi:inspect-evals=={version}\n"})
    return tree


def git(repo: Path, *args: str) -> str:
    """Run git in `repo`; its stdout."""
    done = subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True
    )
    return done.stdout


def unified_diff(expected: str, actual: str, path: str = "text") -> str:
    """What differs from `expected` in `actual`, as a unified diff."""
    return "".join(
        difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            f"expected/{path}",
            f"actual/{path}",
        )
    )
