"""What a codemod is, does and implies: everything about it but its rewrite.

Each codemod's folder declares it in its ``__init__.py`` with one
`Declaration`; ``empty_migrate.codemods.DECLARATIONS`` lists them in pipeline
order. Everything else that needs to know the codemods reads the
declarations: the registry's check of the codemod names an entry lists, the
codemods whose code makes ``install_router`` install the router, the
changelog's lead sentence, the drift report, ``--list-codemods`` and the
codemod table of docs/codemods.md (checked by ``tests/codemods/test_declarations.py``).
Standard library only, so that reading a declaration never loads LibCST.
"""

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Declaration:
    """What a codemod is, does and implies, for everything but its rewrite.

    Attributes:
        name: Its name: the module ``codemods/<name>.py`` holding its `Codemod`
            subclass, the golden folder ``golden/<name>/``, the ``--only``
            value and the registry's ``codemods`` entry.
        description: One line for ``--list-codemods``.
        documentation: What it does, for the codemod table of docs/codemods.md.
        changes_scores: True if it changes score values (unsafe: metrics move);
            False for tags and bookkeeping only.
        changelog_clause: What the changelog's lead sentence says it did, e.g.
            "the judge is skipped for non-answers"; ``{scorers}`` stands for
            "the scorer is" or "the scorers are", ``{router}`` for the router
            function. Empty if the changelog does not mention it.
        routes: True if, once it has run, the eval's non-answers are routed by
            the policy: the changelog then says, per scorer, what they score.
        imports_router: True if the code it writes imports the router module,
            which ``install_router`` then installs.
        spares_judge: True if it keeps non-answers from a judge in a solver.
            Once the eval is routed, each scorer's changelog description says
            whether its judge is spared, so its clause is left out.
        finds: The `EvalScan` findings it rewrites (the attribute's name): the
            drift report names an eval with such findings that does not list
            it. Empty if the scan finds nothing for it.
        needs: The codemods that must run in the same run for the code it
            writes to run (it imports the module another one installs, say):
            a selection of codemods without them is refused.
        repo_level: True for a change outside the eval's own scoring (the
            router module, the retired preset helper): it does not count as a
            change to the eval's scores, so alone it bumps no version.
        follows_changes: True for bookkeeping (version bump, changelog): it runs
            after the code codemods, and only if they changed the eval.
        shared_files: Files (from the repo root) it writes that every migrated
            eval shares, like the router module: the diff summarises them in
            its header, and branch mode puts them in the foundation. Its other
            files belong to the unit of evals it was run for.
        implied_by: For a codemod the registry never lists: the attribute of
            the listed codemods that brings it in (``imports_router`` for the
            router's install, ``routes`` for the emitted tests,
            ``rewrites_code`` for any code codemod, ``replaces_preset`` for the
            preset helper's retirement).
    """

    name: str
    description: str
    documentation: str
    changes_scores: bool
    changelog_clause: str = ""
    routes: bool = False
    imports_router: bool = False
    spares_judge: bool = False
    finds: str = ""
    needs: tuple[str, ...] = ()
    repo_level: bool = False
    follows_changes: bool = False
    shared_files: tuple[str, ...] = ()
    implied_by: str = ""

    def shares(self, path: str) -> bool:
        """Whether its change to `path` is to a file every migrated eval shares."""
        return path in self.shared_files

    @property
    def replaces_preset(self) -> bool:
        """True for the codemod that replaces the preset helper's calls."""
        return self.finds == "preset_calls"

    @property
    def rewrites_code(self) -> bool:
        """True for a codemod that changes the eval's code, not its bookkeeping."""
        return not self.follows_changes

    @property
    def safety(self) -> str:
        """The docs' word for it: unsafe if it changes score values, else safe."""
        return "unsafe" if self.changes_scores else "safe"

    def applies(self, listed: Sequence["Declaration"]) -> bool:
        """Whether it can change an eval whose registry entry lists `listed`."""
        if self.implied_by:
            return any(getattr(d, self.implied_by) for d in listed)
        return self in listed
