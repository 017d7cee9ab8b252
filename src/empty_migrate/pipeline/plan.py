"""Which evals a migration run covers, in which units, and what it says first.

One planner for every command that asks what a migration would do: ``--eval``,
``--all``, ``--check``, ``--branch-per-eval`` and ``lint`` (whose ``--fix``
runs the same migration). An eval's change is that eval's: a run never
changes how an eval outside it scores. Two kinds of shared code make that a
rule to plan for:

- a scorer in a module several evals call (``utils/aime_common.py``'s
  ``aime_scorer``): migrating one of them rewrites it, so all its callers are
  migrated together, as one unit, each with its own version bump and
  changelog; a caller that cannot be migrated (no registry entry, or an
  entry left ``manual``) keeps the whole unit as it is;
- ``preset_score_on_no_response``, which the migrated evals stop calling: it
  keeps its behaviour while any eval outside the run still calls it, and
  becomes a shim over the router (``retire_preset``) in the run that
  migrates its last callers, which then form one unit.

Units are what a run writes all or nothing, and what ``--branch-per-eval``
makes one branch of. The plan also names the eval packages of the tree that
the registry does not know, which every run reports.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from empty_migrate.analysis.callers import callers
from empty_migrate.analysis.callers import forget as forget_callers
from empty_migrate.analysis.scan import EvalScan
from empty_migrate.codemods.retire_preset import PRESET, PRESET_FILE
from empty_migrate.entries.in_target import scaffold_command
from empty_migrate.entries.schema import EvalEntry
from empty_migrate.registry.drift import eval_drift
from empty_migrate.registry.loader import Registry
from empty_migrate.registry.target import unknown_evals


@dataclass(frozen=True)
class Plan:
    """What a migration run covers.

    Attributes:
        evals: Every eval of the run, in run order: those asked for, each
            followed by the evals it brought in.
        groups: The units: evals migrated together, each written all or nothing.
        notes: What the run says before it computes anything: which evals it
            brought in or migrates together, and why.
        blocked: Evals the run leaves as they are, with the reason: a unit
            with a caller the migration cannot take along.
        unknown: The eval packages of the tree with no registry entry.
    """

    evals: tuple[str, ...]
    groups: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = ()
    blocked: dict[str, str] = field(default_factory=dict)
    unknown: tuple[str, ...] = ()

    def unit(self, name: str) -> tuple[str, ...]:
        """The evals migrated together with `name` (itself included)."""
        return next(group for group in self.groups if name in group)

    def unknown_note(self) -> str | None:
        """The line that names the tree's unregistered evals, if there are any."""
        if not self.unknown:
            return None
        commands = "; ".join(scaffold_command(name) for name in self.unknown)
        names = ", ".join(self.unknown)
        return (
            f"{len(self.unknown)} eval(s) not in the registry, left as they are: "
            f"{names}; write an entry with `{commands}`, fill in its TODOs, then "
            "migrate"
        )


def plan_run(registry: Registry, repo: Path, requested: Sequence[str]) -> Plan:
    """The plan of a run asked to migrate `requested` in the tree at `repo`.

    Only the entries of the evals concerned are loaded, and the tree is read
    for callers only when an eval of the run rewrites shared code.

    Raises:
        RegistryError: If the entry of an eval the run brings in is invalid.
    """
    forget_callers()  # the tree as it is now, not as an earlier run found it
    planner = _Planner(registry, repo, set(requested))
    for name in requested:
        planner.add(name)
    planner.retire_preset()
    return planner.plan()


class _Planner:
    """Grows the run from the evals asked for, joining the units it finds."""

    def __init__(self, registry: Registry, repo: Path, requested: set[str]) -> None:
        self.registry = registry
        self.repo = repo
        self.requested = requested
        self.shared: dict[str, str] = {}
        """Each shared scorer file the run rewrites, with the eval that found it."""
        self.order: list[str] = []
        self.parent: dict[str, str] = {}
        self.notes: list[str] = []
        self.blocked: dict[str, str] = {}

    def add(self, name: str) -> None:
        if name in self.parent:
            return
        self.order.append(name)
        self.parent[name] = name
        entry = self.registry.get(name)
        if not isinstance(entry.codemods, list):
            return  # none or manual: it rewrites nothing
        for file, names in _shared_scorers(name, entry).items():
            self.share(name, file, names)

    def share(self, name: str, file: str, names: Iterable[str]) -> None:
        """Bring in and join every caller of a shared scorer `name` rewrites."""
        if file in self.shared:  # its callers are in the run already
            self.join(self.shared[file], name)
            return
        self.shared[file] = name
        found = callers(self.repo, names, file)
        named = {n for n in self.registry.mentioning(file) if self._scored_by(n, file)}
        others = sorted((found | named) - {name, "utils"})
        stuck = [c for c in others if not self._migratable(c, file)]
        if "utils" in found:
            stuck.append("shared code in utils/")
        if stuck:
            why = (
                f"{file} is rewritten with it and also scores "
                f"{', '.join(stuck)}, which cannot be migrated with it; migrate "
                "them together once they have entries that list codemods"
            )
            for member in [name, *others]:
                self.blocked.setdefault(member, why)
            return
        new = [other for other in others if other not in self.requested]
        for other in others:
            self.add(other)
            self.join(name, other)
        if new:
            self.notes.append(
                f"{name} shares {file} ({', '.join(sorted(names))}) with "
                f"{', '.join(new)}: migrating them together, each with its own "
                "version bump and changelog"
            )

    def _scored_by(self, name: str, file: str) -> bool:
        """Whether eval `name`'s entry registers a scorer in `file`."""
        return any(scorer.file == file for scorer in self.registry.get(name).scorers)

    def _migratable(self, name: str, file: str) -> bool:
        """Whether a caller of `file` can be migrated with it (its wrap included)."""
        return (
            name in self.registry.files
            and bool(_codemods(self, name))
            and self._scored_by(name, file)
        )

    def retire_preset(self) -> None:
        """Join the preset's callers when the run holds them all; else say why not."""
        calling = [
            name for name in self.order if "replace_preset" in _codemods(self, name)
        ]
        if not calling:
            return
        found = callers(self.repo, [PRESET], PRESET_FILE)
        outside = sorted(found - set(calling))
        if outside:
            self.notes.append(
                f"{PRESET} ({PRESET_FILE}) keeps its behaviour: "
                f"{', '.join(outside)} still call it; it becomes a shim over "
                "the router in the run that migrates its last callers"
            )
            return
        members = [name for name in calling if name in found]
        for other in members[1:]:
            self.join(members[0], other)
        if len(members) > 1:
            self.notes.append(
                f"{', '.join(members)} are migrated together: they are the last "
                f"callers of {PRESET} ({PRESET_FILE}), which becomes a shim over "
                "the router with them"
            )

    def root(self, name: str) -> str:
        while self.parent[name] != name:
            name = self.parent[name]
        return name

    def join(self, one: str, other: str) -> None:
        self.parent[self.root(other)] = self.root(one)

    def plan(self) -> Plan:
        groups: dict[str, list[str]] = {}
        for name in self.order:
            groups.setdefault(self.root(name), []).append(name)
        for group in groups.values():
            if reasons := [self.blocked[n] for n in group if n in self.blocked]:
                for name in group:
                    self.blocked.setdefault(name, reasons[0])
        return Plan(
            tuple(self.order),
            tuple(tuple(group) for group in groups.values()),
            tuple(self.notes),
            self.blocked,
            tuple(unknown_evals(self.registry, self.repo)),
        )


def _codemods(planner: _Planner, name: str) -> list[str]:
    codemods = planner.registry.get(name).codemods
    return codemods if isinstance(codemods, list) else []


def _shared_scorers(name: str, entry: EvalEntry) -> dict[str, list[str]]:
    """The files outside its package whose scorers the eval's migration rewrites."""
    shared: dict[str, list[str]] = {}
    for scorer in entry.scorers:
        if scorer.rewrite and not scorer.file.startswith(f"{name}/"):
            shared.setdefault(scorer.file, []).append(scorer.name)
    return shared


def blocker(
    registry: Registry, name: str, scan: EvalScan | None, repo: Path
) -> str | None:
    """Why the migration leaves eval `name` as it is before any codemod runs.

    One rule for the migration and for ``lint``: the entry leaves it to a
    person (``manual``) or says it needs nothing (``none``), a file of it is
    not UTF-8 or does not parse, or its code no longer matches its entry
    (each difference with what to change in the entry, which is named).

    Args:
        registry: The registry the run reads.
        name: The eval.
        scan: Its package's scan (None when its entry lists no codemods).
        repo: The tree.
    """
    entry = registry.get(name)
    if isinstance(entry.codemods, str) or scan is None:
        return f"registry says {entry.codemods}: {entry.codemods_reason}"
    if scan.not_utf8:
        return "; ".join(f.text for f in scan.not_utf8)
    if scan.unparsable:
        return "; ".join(f"{f.file} does not parse ({f.text})" for f in scan.unparsable)
    drift = list(eval_drift(registry, name, scan, repo))
    if not drift:
        return None
    details = "; ".join(f"{d.kind}: {d.detail} ({d.advice})" for d in drift)
    where = registry.files[name]
    if where.is_relative_to(repo):
        where = where.relative_to(repo)
    return f"code no longer matches its entry {where}: {details}"
