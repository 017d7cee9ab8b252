"""What every codemod is, and what it is given.

A codemod rewrites one kind of construct, driven by the registry entry of the
eval being migrated. It names the files it touches and turns the text of each
into new text. If it cannot rewrite a construct safely it raises `Skip`, and
the runner leaves the whole eval unchanged: nothing is ever half-rewritten.
"""

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import TypeVar

from empty_migrate.analysis.scan import PACKAGE_ROOT, EvalScan
from empty_migrate.analysis.workspace import Workspace
from empty_migrate.codemods.kit.declaration import Declaration
from empty_migrate.entries.schema import EvalEntry, Resolved, ScorerEntry, resolve

Derived = TypeVar("Derived")


class Skip(Exception):
    """The construct cannot be rewritten safely; the message says why."""


_NOT_IN_ROUTER_CALL = frozenset(
    {
        "polarity",
        "polarity_key",
        "polarity_labels",
        "judge",
        "probe_metadata",
        "probe_target",
        "probe_choices",
        "probe_offline",
        "absent_metadata",
    }
)
"""Settings the router call does not state: polarity, judge location, test
metadata, the metadata routed scores lack on purpose."""


@dataclass(frozen=True)
class EvalTarget:
    """One eval to migrate: its registry entry, its scan, and the tree it lives in.

    Attributes:
        name: The eval package name, e.g. ``xstest``.
        entry: Its registry entry.
        scan: What the static scan found in its package.
        today: The date to write into changelog entries (``YYYY-MM-DD``).
        listed: The codemods its registry entry lists, in pipeline order.
        changed_by: The code codemods that rewrote the eval in this run; the
            follow-up codemods (version bump, changelog) act only when it is
            not empty, which keeps a second run from bumping again.
        workspace: The one reader of the tree: codemods read every file
            through `read` and `python_files`, never from disk.
        unit: The evals migrated together with it, itself included
            (`empty_migrate.pipeline.plan`): shared code changes only with
            every eval it scores.
    """

    name: str
    entry: EvalEntry
    scan: EvalScan
    today: str
    listed: tuple[Declaration, ...]
    changed_by: tuple[Declaration, ...]
    workspace: Workspace = field(compare=False, repr=False)
    unit: tuple[str, ...] = ()
    _derived: dict[str, object] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )

    def read(self, path: str) -> str:
        """The run's current text of a file (from the repo root); "" if none."""
        return self.workspace.read(path)

    def python_files(self, relative: str) -> list[str]:
        """The ``.py`` files under a folder of ``src/inspect_evals``, repo paths."""
        return self.workspace.python_files(self.source(relative))

    def derived(self, key: str, compute: "Callable[[], Derived]") -> Derived:
        """What `compute` gives, computed once for this target (e.g. a plan).

        Per-eval analysis lives here, in the eval's own target, so nothing
        is shared between evals or kept by call order.
        """
        if key not in self._derived:
            self._derived[key] = compute()
        # a key is always computed by the same `compute`: it holds its type
        return self._derived[key]  # type: ignore[return-value]

    def source(self, relative: str) -> str:
        """A path under ``src/inspect_evals``, as a path from the repo root."""
        return (PACKAGE_ROOT / relative).as_posix()

    def scorers_in(self, relative: str) -> list[ScorerEntry]:
        """The registered scorer constructs defined in one file."""
        return [s for s in self.entry.scorers if s.file == relative]

    def settings(self, scorer: ScorerEntry) -> Resolved:
        """The scorer's effective settings; `Skip` if they differ across its tasks.

        A scorer shared by tasks that need different routes cannot be wrapped
        once with explicit arguments; it needs a per-task wrap by hand.
        """
        tasks = self.entry.tasks_of(scorer)
        resolved = [resolve(self.entry, task, scorer) for task in tasks]
        calls = [
            {
                key: value
                for key, value in asdict(r).items()
                if key not in _NOT_IN_ROUTER_CALL
            }
            for r in resolved
        ]
        if any(call != calls[0] for call in calls[1:]):
            raise Skip(
                f"{scorer.name}: settings differ between tasks {tasks}; "
                "wrap it per task by hand"
            )
        return resolved[0]

    def reads_model_output(self, scorer: ScorerEntry) -> bool:
        """Whether a codemod should touch the scorer: listed for rewrite, reads text."""
        return self.entry.reads_model_output(scorer)

    def routed_scorers(self) -> list[ScorerEntry]:
        """The registered constructs the migration wraps in the router."""
        return [s for s in self.entry.scorers if self.reads_model_output(s)]

    def wants(self, codemod: str) -> bool:
        """Whether the registry lists this codemod for the eval."""
        return isinstance(self.entry.codemods, list) and codemod in self.entry.codemods


class Codemod:
    """Base of all codemods: its declaration, the files touched, and the rewrite.

    Args:
        declaration: What the codemod is (its folder's ``__init__.py``); its
            fields are readable on the codemod too.
    """

    def __init__(self, declaration: Declaration) -> None:
        self.declaration = declaration

    @property
    def name(self) -> str:
        """The declared name."""
        return self.declaration.name

    @property
    def description(self) -> str:
        """The declared one-line description."""
        return self.declaration.description

    @property
    def changes_scores(self) -> bool:
        """True if it changes score values (unsafe: metrics move)."""
        return self.declaration.changes_scores

    @property
    def needs(self) -> tuple[str, ...]:
        """Codemods that must run in the same run for this one's output to run."""
        return self.declaration.needs

    @property
    def repo_level(self) -> bool:
        """True for a change outside the eval's own scoring (the router module)."""
        return self.declaration.repo_level

    @property
    def follows_changes(self) -> bool:
        """True for bookkeeping that runs only after the code codemods changed code."""
        return self.declaration.follows_changes

    def applies(self, target: EvalTarget) -> bool:
        """Whether the eval's registry entry asks for it, or implies it."""
        return self.declaration.applies(target.listed)

    def files(self, target: EvalTarget) -> list[str]:
        """The files (relative to the repo root) this codemod rewrites for `target`."""
        raise NotImplementedError

    def transform(self, text: str, path: str, target: EvalTarget) -> str:
        """Rewrite one file's text; return it unchanged when there is nothing to do.

        Raises:
            Skip: If a construct cannot be rewritten safely.
        """
        raise NotImplementedError
