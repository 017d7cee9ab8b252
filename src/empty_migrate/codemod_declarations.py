"""One declaration per codemod: everything about it except how it rewrites.

`DECLARATIONS` is the one place a codemod is named. Its order is the pipeline
order. Everything else that needs to know the codemods derives from it: the
implementations (``codemods/<name>.py``, found by name), the registry schema's
list of codemod names, the codemods whose code makes ``install_router``
install the router, the changelog's lead sentence, the drift report, and the
README's codemod table (checked by ``tests/codemods/test_declarations.py``).

It lives in ``src/``, not in ``codemods/``, and imports only the standard
library, so that the registry reads it without loading LibCST, and in the
target's environment, where only ``src/`` is on the path.
"""

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Declaration:
    """What a codemod is, does and implies, for everything but its rewrite.

    Attributes:
        name: Its name: the module ``codemods/<name>.py`` holding its `Codemod`
            subclass, the golden folder ``golden/<name>/``, the ``--only``
            value and the registry's ``codemods`` entry.
        description: One line for ``--list-codemods``.
        documentation: What it does, for the README's codemod table.
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
        repo_level: True for a change to files every eval shares (the router
            module): it does not count as a change to the eval's own scoring.
        follows_changes: True for bookkeeping (version bump, changelog): it runs
            after the code codemods, and only if they changed the eval.
        shared_files: Files (from the repo root) it writes that every migrated
            eval shares, like the router module, though its other files are
            the eval's own: the diff summarises them in its header.
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

    def shares(self, path: str) -> bool:
        """Whether its change to `path` is to a file every migrated eval shares."""
        return self.repo_level or path in self.shared_files

    @property
    def safety(self) -> str:
        """The README's word for it: unsafe if it changes score values, else safe."""
        return "unsafe" if self.changes_scores else "safe"


DECLARATIONS: tuple[Declaration, ...] = (
    Declaration(
        name="install_router",
        description=(
            "Install the outcome router as inspect_evals.utils.empty_response and "
            "turn preset_score_on_no_response into a deprecated shim over it."
        ),
        documentation=(
            "Installs `src/inspect_evals/utils/empty_response.py`, generated from "
            "this package's own `router.py`, with `policy.py` inlined, so the copy "
            "and the source never drift. Turns `preset_score_on_no_response` into a "
            "deprecated shim that delegates to the router. Implied by any code "
            "codemod, and never listed in the registry"
        ),
        changes_scores=True,
        repo_level=True,
    ),
    Declaration(
        name="replace_preset",
        description=(
            "Replace each preset_score_on_no_response(grader, value) call with "
            "route_empty_responses(grader, ...) and the enclosing scorer's settings."
        ),
        documentation=(
            "`preset_score_on_no_response(grader, value)` calls (positional, "
            "keyword, aliased or module-qualified) become "
            "`route_empty_responses(grader, ...)` with the enclosing scorer's "
            "registry values. The import is removed once it is unused"
        ),
        changes_scores=True,
        changelog_clause="`preset_score_on_no_response` is replaced",
        routes=True,
        imports_router=True,
        finds="preset_calls",
        needs=("install_router",),
    ),
    Declaration(
        name="wrap_router",
        description="Wrap each registered scorer construct with the outcome router.",
        documentation=(
            "Wraps each registered construct: the `return` of a `@scorer` factory "
            "or shared helper, or the `scorer=` of a `Task(...)`. The keyword "
            "arguments are written out explicitly, so nothing is looked up at "
            "runtime"
        ),
        changes_scores=True,
        changelog_clause="{scorers} wrapped in `{router}`",
        routes=True,
        imports_router=True,
        needs=("install_router", "replace_preset"),
    ),
    Declaration(
        name="judge_bypass",
        description=(
            "Check every judge runs inside a routed scorer; guard solver-side judges "
            "so non-answers never reach them."
        ),
        documentation=(
            "Checks that every judge call runs inside a routed scorer. A judge in a "
            "solver gets a guard (`if classify(state.output) is not "
            "Outcome.ANSWERED: return state`), and the model's output is saved to "
            "the store where the registry says. Any other shape is skipped with the "
            "reason"
        ),
        changes_scores=True,
        changelog_clause="the judge is skipped for non-answers",
        imports_router=True,
        spares_judge=True,
        needs=("install_router",),
    ),
    Declaration(
        name="replace_dead_check",
        description=(
            "Replace empty checks that never fire or miss whitespace with the "
            "router's classification of the model's output."
        ),
        documentation=(
            "Replaces `if not state.output`, `state.output and ...`, `output.empty` "
            'read as "no text", empty checks that miss whitespace, and `text is not '
            "None` with the router's classification"
        ),
        changes_scores=True,
        changelog_clause="a hand-written empty check now uses its classification",
        imports_router=True,
        finds="dead_checks",
        needs=("install_router",),
    ),
    Declaration(
        name="fix_reason_tag",
        description=(
            "Add reason= (and a missing explanation=) to scores returned on a "
            "model's non-answer path."
        ),
        documentation=(
            "Adds `reason=` and a missing `explanation=` to the scores returned on "
            "a non-answer path. It never changes `value=`"
        ),
        changes_scores=False,
        changelog_clause="a hand-written empty or refusal score now sets `reason`",
        imports_router=True,
    ),
    Declaration(
        name="update_tests",
        description="Update target tests that pin the old non-answer behaviour.",
        documentation=(
            "Applies the registry's `test_updates`: the smallest edits that make a "
            "target test which pinned the old non-answer behaviour assert the new "
            "one (an empty answer now `NOANSWER`, a test double with no choices "
            "given a real one). Each edit must match exactly once, or the eval is "
            "skipped. Runs only when the eval's scoring was migrated; the changelog "
            "names each updated test and why. A test is never deleted or skipped"
        ),
        changes_scores=False,
        follows_changes=True,
    ),
    Declaration(
        name="emit_policy_tests",
        description=(
            "Write tests/<eval>/test_empty_response_policy.py, asserting the route of "
            "every outcome class for each routed scorer, and its shared fixtures."
        ),
        documentation=(
            "Writes `tests/<eval>/test_empty_response_policy.py`: each routed "
            "scorer, built by the eval's own code, scores a real provider-shaped "
            "output of every outcome class, and the test asserts the route the "
            "registry and the policy give it (verdict, reason, `empty_outcome`, "
            "unscored or raised, judge not called), on both polarities of a "
            "per-sample eval, and that an answer reaches the eval's scorer. Its "
            "helpers, `tests/utils/empty_response.py`, are generated from this "
            "package's `probe.py` and fixture library. Runs only when the eval's "
            "scoring was migrated"
        ),
        changes_scores=False,
        follows_changes=True,
        shared_files=("tests/utils/empty_response.py",),
    ),
    Declaration(
        name="bump_task_version",
        description="Bump N of the eval's task version N-X when its scores changed.",
        documentation=(
            '`N` of `version: "N-X"` in `eval.yaml` goes up by one when the eval\'s '
            "scores changed (the target's TASK_VERSIONING.md)"
        ),
        changes_scores=False,
        follows_changes=True,
    ),
    Declaration(
        name="changelog",
        description="Add a changelog.d fragment and a README changelog entry.",
        documentation=(
            "Writes a scriv fragment in `changelog.d/` and a `### [N-X] - date` "
            "entry in the eval's README, each saying in one or two sentences what "
            "changes for that eval's numbers"
        ),
        changes_scores=False,
        follows_changes=True,
    ),
)


def declared(names: Iterable[str]) -> list[Declaration]:
    """The declarations of the codemods `names` names, in pipeline order.

    Names no codemod declares are left out.
    """
    wanted = set(names)
    return [d for d in DECLARATIONS if d.name in wanted]


def readme_table() -> str:
    """The README's codemod table: name, safety and what each one does."""
    rows = [f"| `{d.name}` | {d.safety} | {d.documentation} |" for d in DECLARATIONS]
    return "\n".join(["| codemod | safety | what it does |", "|---|---|---|", *rows])
