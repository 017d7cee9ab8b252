"""What every command shares: notes, the registry, eval selection, progress."""

import contextlib
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from empty_migrate import TYPE_CHECKING
from empty_migrate.cli.exit_codes import ExitCode
from empty_migrate.entries.in_target import scaffold_command
from empty_migrate.errors import EmptyMigrateError
from empty_migrate.registry import folder_problem
from empty_migrate.registry.target import registry_of, unknown_evals

if TYPE_CHECKING:  # the entries' loader is imported when an entry is read
    from empty_migrate.logs.outcomes import AnswerLocation
    from empty_migrate.pipeline.migrate import Progress
    from empty_migrate.registry.loader import Registry


class UsageError(EmptyMigrateError):
    """Bad input: one line on stderr, exit 2; the message says what to do."""


# every C0 control but the newline, DEL, every C1 control, and the bidi
# overrides and isolates that reorder what a terminal shows
_CONTROLS = [*range(0x0A), *range(0x0B, 0x20), 0x7F, *range(0x80, 0xA0)]
_REORDERS = [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_SHOWN = str.maketrans(
    {c: f"\\x{c:02x}" for c in _CONTROLS} | {c: f"\\u{c:04x}" for c in _REORDERS}
)


def terminal_safe(text: str) -> str:
    r"""`text` with each control character shown as its escape, not sent.

    Text from a log or a file (a model name, a sample id, an error) may hold
    escape sequences that clear the screen, recolour or retitle the terminal,
    or move the cursor over a line already printed: ESC shows as ``\x1b``.
    Newlines are kept; JSON text is unchanged (it escapes every control).
    """
    return text.translate(_SHOWN)


def note(message: str) -> None:
    """One line for the user on stderr, named for the program (every command's)."""
    print(f"empty-migrate: {terminal_safe(message)}", file=sys.stderr, flush=True)


def reported(error: EmptyMigrateError) -> int:
    """Tell the user `error` and return its exit code: every command's errors end here.

    One note (`note`), or a registry's problems one line each (`report_problems`).
    """
    if error.problems:
        report_problems(error)
    else:
        note(str(error))
    return error.exit_code


def usage_error(message: str) -> int:
    """Print `message` as a note and return the usage error's exit code."""
    note(message)
    return ExitCode.USAGE


def open_registry(directory: Path, root: Path | None) -> "Registry":
    """The registry every command reads: the checkout's entries, then `directory`'s.

    The entries a target keeps (``src/inspect_evals/<eval>/empty_response.yaml``
    in the checkout at `root`) come first; the folder `directory` (this
    package's registry unless ``--registry`` says otherwise) seeds the rest
    (`registry_of`). Entries are read when used.

    Raises:
        UsageError: If `directory` is not a folder holding registry entries.
    """
    problem = folder_problem(directory)
    if problem:
        raise UsageError(
            f"--registry {directory}: {problem}; pass the folder of <eval>.yaml "
            "entries, or leave --registry out for the registry this tool ships"
        )
    return registry_of(root, directory)


def outcome_locations(directory: Path) -> "AnswerLocation":
    """Where each log's eval keeps the model's answer, as `outcomes` reads logs.

    A known eval's answer is read where its registry entry says, as audit
    does: the registry of the inspect_evals checkout holding the working
    folder, if any, then `directory`'s (`open_registry`). The Scout scanner
    reads logs through this too (`empty_migrate.scout`).

    Raises:
        UsageError: If `directory` is not a folder holding registry entries.
    """
    # imported here: reading logs needs inspect_ai, which most commands do not
    from empty_migrate.logs.replay import answer_location
    from empty_migrate.target.layout import enclosing_checkout

    return answer_location(open_registry(directory, enclosing_checkout(Path.cwd())))


def check_or_report(registry: "Registry", evals: Iterable[str] | None = None) -> bool:
    """Whether the entries of `evals` (all if None) are valid.

    If not, prints every problem of those entries (`report_problems`).
    """
    from empty_migrate.registry.loader import RegistryError  # with the entries

    try:
        registry.check(evals)
    except RegistryError as error:
        report_problems(error)
        return False
    return True


def report_problems(error: EmptyMigrateError) -> None:
    """Print every problem of `error`, one ``file:line: key: problem`` line each.

    Their count follows when there are several.
    """
    for problem in error.problems:
        print(problem, file=sys.stderr)
    if len(error.problems) > 1:
        print(f"registry invalid: {len(error.problems)} problem(s)", file=sys.stderr)


def selected_evals(
    registry: "Registry",
    names: Sequence[str] | None,
    take_all: bool,
    root: Path | None = None,
) -> list[str]:
    """The evals a command runs on: all of them, or the names given, once each.

    Raises:
        UsageError: If neither is given, or both, or a name is not a
            registered eval (the message names close matches, or says how
            to write the entry of a package of the checkout at `root`).
    """
    if take_all and names:
        raise UsageError("--all and --eval exclude each other: pass one of them")
    if take_all:
        return registry.names
    if not names:
        raise UsageError("name --eval EVAL (repeatable) or --all")
    for name in names:
        if name not in registry.files:
            raise UsageError(unknown_eval_message(registry, name, "--eval ", root))
    return list(dict.fromkeys(names))


def unknown_eval_message(
    registry: "Registry", name: str, option: str = "", root: Path | None = None
) -> str:
    """Why `name` is no eval: unregistered, a task of one, else the close matches.

    ``'gpqa_diamond' is a task of eval gpqa: pass --eval gpqa`` (`option` is
    what comes before an eval's name on the command line). A package of the
    checkout at `root` with no entry gets the command that writes one.
    """
    if root is not None and name in unknown_evals(registry, root):
        return (
            f"eval {name!r} has no registry entry: write one with "
            f"`{scaffold_command(name)}` and fill in its TODOs"
        )
    # imported here: only a name that is no eval reads the tasks and matches
    from empty_migrate.registry.loader import unknown_name_message
    from empty_migrate.registry.tasks import task_index, task_name

    owners = task_index(registry).get(task_name(name), ())
    if not owners:
        return unknown_name_message("eval", name, registry.files)
    evals = " or ".join(f"{option}{owner}" for owner in owners)
    return f"{name!r} is a task of eval {' and '.join(owners)}: pass {evals}"


@contextlib.contextmanager
def progress_bar(
    items: Sequence[str] | None = None, doing: str = "migrating"
) -> Iterator["Progress | None"]:
    """A progress bar on a terminal's stderr for a run of several items.

    With `items` (a run's evals), the bar shows from the start when there are
    two or more; without (the logs under folders, found as they are read), it
    shows from the first report of a run of two or more.
    """
    if (items is not None and len(items) < 2) or not sys.stderr.isatty():
        yield None
        return
    with contextlib.ExitStack() as stack:
        shown: list[Callable[[int, str], None]] = []

        def show(index: int, total: int, name: str) -> None:
            if not shown and total > 1:
                shown.append(_bar(stack, doing, total))
            for update in shown:
                update(index, name)

        if items is not None:
            show(0, len(items), "")
        yield show


def _bar(
    stack: contextlib.ExitStack, doing: str, total: int
) -> Callable[[int, str], None]:
    from rich.console import Console  # only a terminal needs rich (slow to import)
    from rich.markup import escape
    from rich.progress import Progress as Bar

    bar = stack.enter_context(Bar(console=Console(stderr=True), transient=True))
    task = bar.add_task(doing, total=total)

    def update(index: int, name: str) -> None:
        # a log's file name is shown as text, not read as markup or escapes
        shown = escape(terminal_safe(name)) if name else doing
        bar.update(task, completed=index, description=shown)

    return update
