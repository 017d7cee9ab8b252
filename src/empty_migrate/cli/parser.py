"""The command line's parser: every command and its options, declared in one place.

Declaring the commands needs the standard library only, and a command's own
options are declared when the command line names it (`COMMANDS`), so that
parsing a command loads nothing another command needs: `empty_migrate.cli.main`
imports each command's module when that command runs.
"""

import argparse
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import NoReturn

from empty_migrate import TYPE_CHECKING, __version__
from empty_migrate.cli.exit_codes import EPILOG
from empty_migrate.registry import EVALS_DIR

if TYPE_CHECKING:
    import datetime
    from typing import Any

    # subscripted only for the checker: argparse's class is not generic at run time
    _SubParsers = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    _SubParsers = argparse._SubParsersAction


def build_parser() -> tuple[argparse.ArgumentParser, list[argparse.Action]]:
    """The command line's parser, and the migration options it holds."""
    parser = _Parser(
        prog="empty-migrate",
        description=(
            "Migrate inspect_evals scorers to one empty-response policy.\n"
            "With --eval or --all and neither --dry-run nor --check, the changes\n"
            "are written into the target tree."
        ),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=__version__)
    migration_options = add_migrate_arguments(parser)
    parser.register("action", "parsers", _Commands)
    commands = parser.add_subparsers(dest="command")
    assert isinstance(commands, _Commands)  # registered above
    for name, (text, declare) in COMMANDS.items():
        commands.add_command(name, text, declare)
    return parser, migration_options


def _policy_options(policy: argparse.ArgumentParser) -> None:
    """``policy``'s options."""
    add_format_option(
        policy,
        ("text", "json", "markdown"),
        note="text and markdown print the same Markdown table",
    )


def _outcomes_options(outcomes: argparse.ArgumentParser) -> None:
    """``outcomes LOG...`` and its options."""
    outcomes.add_argument(
        "logs",
        nargs="+",
        metavar="LOG",
        help="an Inspect log (.eval or .json), or a folder: every log under it",
    )
    add_format_option(outcomes, aliases={"table": "text"})
    outcomes.add_argument(
        "--registry", type=Path, default=EVALS_DIR, help=argparse.SUPPRESS
    )


def add_migrate_arguments(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """Add the top-level migration options; returns them."""
    group = parser.add_argument_group(
        "migration (without --dry-run or --check, the changes are written)"
    )
    mode = group.add_mutually_exclusive_group()
    names = _CodemodNames()
    # --eval, --repo and --registry have dests of their own: the registry
    # commands have an `eval` argument and options of the same names
    return [
        group.add_argument(
            "--eval",
            dest="evals",
            action="append",
            metavar="EVAL",
            help="eval to migrate (repeat)",
        ),
        group.add_argument("--all", action="store_true", help="migrate every eval"),
        mode.add_argument(
            "--dry-run", action="store_true", help="print the diff; write nothing"
        ),
        mode.add_argument(
            "--check",
            action="store_true",
            help="write nothing; exit 1 if any eval still needs migrating",
        ),
        group.add_argument(
            "--only",
            action="append",
            choices=names,
            metavar="CODEMOD",
            help="run only this codemod (repeat; see --list-codemods)",
        ),
        group.add_argument(
            "--skip",
            action="append",
            choices=names,
            metavar="CODEMOD",
            help="do not run this codemod (repeat)",
        ),
        group.add_argument(
            "--list-codemods", action="store_true", help="print name and description"
        ),
        group.add_argument(
            "--format", dest="output_format", choices=["text", "json"], default="text"
        ),
        *_detail_options(group),
        group.add_argument(
            "--show-shared",
            action="store_true",
            help="with --dry-run, print the diff of the files all evals share",
        ),
        group.add_argument(
            "--replace-router",
            action="store_true",
            help="replace the router module and the policy tests' helpers even "
            "where their maintainers edited them (default: keep their text)",
        ),
        group.add_argument(
            "--repo",
            dest="migrate_repo",
            metavar="REPO",
            help="PATH, or pypi:inspect-evals==VERSION",
        ),
        group.add_argument(
            "--registry",
            dest="migrate_registry",
            type=Path,
            default=EVALS_DIR,
            help=argparse.SUPPRESS,
        ),
        group.add_argument(
            "--wait",
            action="store_true",
            help="if another run is writing to the repository, wait for it to "
            "finish (default: exit 2 at once)",
        ),
        group.add_argument(
            "--today",
            type=fromisoformat,
            default=None,
            metavar="DATE",
            help="date for changelog entries (YYYY-MM-DD; default: today)",
        ),
        *add_branch_arguments(group),
    ]


def _detail_options(group: argparse._ArgumentGroup) -> list[argparse.Action]:
    """``-v/--verbose`` and ``-q/--quiet``: how much a run says on stderr."""
    detail = group.add_mutually_exclusive_group()
    return [
        detail.add_argument(
            "-v",
            "--verbose",
            action="store_true",
            help="say what changes in each eval's scores and why each eval "
            "was left (default: a short summary)",
        ),
        detail.add_argument(
            "-q", "--quiet", action="store_true", help="print errors only on stderr"
        ),
    ]


def fromisoformat(text: str) -> "datetime.date":
    """``--today``'s date, from YYYY-MM-DD (argparse names it in an error)."""
    import datetime  # only a run given --today reads a date

    return datetime.date.fromisoformat(text)


def migration_options_given(
    options: list[argparse.Action], args: argparse.Namespace
) -> list[str]:
    """The migration options set on the command line, by their first flag."""
    return [
        action.option_strings[0]
        for action in options
        if getattr(args, action.dest, None) != action.default
    ]


def add_branch_arguments(group: argparse._ArgumentGroup) -> list[argparse.Action]:
    """Add the branch-per-eval options to the migration group; returns them."""
    return [
        group.add_argument(
            "--branch-per-eval",
            action="store_true",
            help="commit the files the evals share on empty-policy/foundation and "
            "each eval's migration on its own branch on it, empty-policy/<eval>, "
            "each with a PR text; the work tree is not touched",
        ),
        group.add_argument(
            "--base",
            metavar="BRANCH",
            help="branch the evals' branches start from and their PRs go into "
            "(default: the checked-out one; needed when HEAD is detached)",
        ),
        group.add_argument(
            "--pr-dir",
            type=Path,
            metavar="DIR",
            help="write the PR texts here (default: .git/empty-migrate/pr)",
        ),
        group.add_argument(
            "--replace-existing",
            action="store_true",
            help="rebuild branches this tool made that differ from this run",
        ),
        group.add_argument(
            "--issue",
            type=int,
            metavar="N",
            help="the issue the PRs close (default: none, with the reason)",
        ),
        group.add_argument(
            "--audit",
            action="store_true",
            help="measure each eval's before/after for its PR text "
            "(runs `audit` in the target environment)",
        ),
        group.add_argument(
            "--audit-python",
            metavar="PYTHON",
            help="the target environment's interpreter for --audit",
        ),
    ]


def _registry_options(registry: argparse.ArgumentParser) -> None:
    """``registry list|show|validate|scan|scaffold`` and their options."""
    actions = registry.add_subparsers(dest="action", required=True)
    listing = actions.add_parser("list", help="eval, category, polarity, codemods")
    add_format_option(listing, aliases={"table": "text"})
    show = actions.add_parser("show", help="everything known about one eval")
    show.add_argument("eval")
    add_format_option(show)
    actions.add_parser(
        "validate", help="schema, and every scorer reference resolves in the target"
    )
    scan = actions.add_parser(
        "scan", help="static analysis of the target; exit 1 on drift from the registry"
    )
    add_format_option(scan)
    scaffold_cmd = actions.add_parser(
        "scaffold",
        help="print a starting entry for an eval, from the scan (save it as "
        "src/inspect_evals/<eval>/empty_response.yaml)",
    )
    scaffold_cmd.add_argument("eval")
    for action in actions.choices.values():
        action.add_argument(
            "--repo",
            help="PATH, or pypi:inspect-evals==VERSION (default: the checkout "
            "around the current folder; outside one, list and show read this "
            "package's registry alone, the others the pinned release)",
        )
        action.add_argument(
            "--registry", type=Path, default=EVALS_DIR, help="folder of <eval>.yaml"
        )


def _audit_options(audit: argparse.ArgumentParser) -> None:
    """``audit``'s options."""
    audit.add_argument(
        "--eval", dest="audit_evals", action="append", default=[], metavar="EVAL"
    )
    audit.add_argument(
        "--all",
        dest="audit_all",
        action="store_true",
        help="every eval of the registry",
    )
    audit.add_argument("--repo", help="PATH, or pypi:inspect-evals==VERSION")
    audit.add_argument(
        "--before",
        metavar="REPO",
        help="also audit this tree and compare it with --repo",
    )
    audit.add_argument(
        "--compare",
        nargs=2,
        metavar=("BEFORE.json", "AFTER.json"),
        help="compare two saved --format json audits; runs nothing",
    )
    add_format_option(
        audit, ("text", "json", "html"), note="html is one self-contained page"
    )
    audit.add_argument(
        "--output", type=Path, metavar="FILE", help="write here, not stdout"
    )
    audit.add_argument(
        "--python",
        help="the target environment's interpreter (else $EMPTY_MIGRATE_TARGET_ENV)",
    )
    audit.add_argument("--workers", type=int, default=2, help="parallel workers (2)")
    audit.add_argument(
        "--log",
        nargs="+",
        action="extend",
        metavar="LOG",
        help="audit the samples of Inspect logs (.eval or .json), or of every log "
        "under a folder: one report per log, then a total; each log's task names "
        "its eval, else --eval EVAL (an eval or one of its tasks) for all",
    )
    audit.add_argument(
        "--registry", type=Path, default=EVALS_DIR, help=argparse.SUPPRESS
    )


def _campaign_options(campaign: argparse.ArgumentParser) -> None:
    """``campaign status`` and ``campaign rebase`` and their options."""
    actions = campaign.add_subparsers(dest="action", required=True)
    show = actions.add_parser("status", help="each branch, its evals and state")
    show.add_argument("--repo", default=".", help="the git checkout (default: .)")
    add_format_option(show, aliases={"table": "text"})
    move = actions.add_parser(
        "rebase",
        help="once empty-policy/foundation has merged, move the eval branches "
        "onto the base",
    )
    move.add_argument("--repo", default=".", help="the git checkout (default: .)")
    move.add_argument(
        "--onto",
        metavar="BRANCH",
        help="the branch the foundation merged into (default: the campaign's base)",
    )
    move.add_argument(
        "--wait",
        action="store_true",
        help="if another run is writing to the repository, wait for it",
    )


def _lint_options(parser: argparse.ArgumentParser) -> None:
    """``lint [PATH...] [--repo ROOT] [--format] [--fix]``."""
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="files or folders to lint (default: the whole checkout)",
    )
    parser.add_argument(
        "--repo",
        type=Path,
        help="the checkout's root (default: the folder holding src/inspect_evals "
        "above the first PATH, or the current folder)",
    )
    parser.add_argument(
        "--fix",
        action="store_true",
        help="migrate the registered evals with findings (as --eval does, under "
        "the repository lock), then lint again",
    )
    parser.add_argument(
        "--registry",
        type=Path,
        default=EVALS_DIR,
        help="folder of <eval>.yaml, for the evals with no "
        "src/inspect_evals/<eval>/empty_response.yaml in the checkout",
    )
    add_format_option(parser)


def _cache_options(cache: argparse.ArgumentParser) -> None:
    """``cache`` (where the user cache is, its size by part) and ``cache clear``."""
    actions = cache.add_subparsers(dest="action")
    actions.add_parser(
        "clear",
        help="remove everything empty-migrate keeps there (refused while a run "
        "holds a lock in it)",
    )
    add_format_option(cache)


Declare = Callable[[argparse.ArgumentParser], None]
"""Adds a command's options (and its own subcommands) to its parser."""

COMMANDS: dict[str, tuple[str, Declare]] = {
    "policy": ("print the category x outcome table", _policy_options),
    "outcomes": (
        "classify every sample's final output in eval logs",
        _outcomes_options,
    ),
    "registry": (
        "the registry of evals: the checkout's own entries "
        "(src/inspect_evals/<eval>/empty_response.yaml), then this package's",
        _registry_options,
    ),
    "audit": (
        "run every registered scorer on each kind of non-answer, as it stands",
        _audit_options,
    ),
    "campaign": ("the branches a --branch-per-eval run made", _campaign_options),
    "lint": (
        "report scorers of a target checkout that bypass the policy "
        "(exit 1 on findings)",
        _lint_options,
    ),
    "cache": (
        "where the user cache is and what it holds, by part; `cache clear` empties it",
        _cache_options,
    ),
}
"""Every command, in the order ``--help`` lists them: its help and its options."""


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose errors name the option or choice meant.

    ``--dryrun`` gets ``did you mean --dry-run?``, ``--evals xstest`` (which
    argparse reports as the command ``xstest``) the option it is a slip for,
    ``campain`` the command: close matches among the option strings and
    choices the parser declares (`similar_names`, as for eval names). The
    commands' parsers are of this class too (argparse makes them so).
    """

    _given: list[str]

    def parse_known_args(  # type: ignore[override]
        self,
        args: "Sequence[str] | None" = None,
        namespace: "argparse.Namespace | None" = None,
    ) -> "tuple[argparse.Namespace, list[str]]":
        """Parse as argparse does, keeping the words for `error`'s suggestions."""
        self._given = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        """Print the usage and `message`, with what may have been meant; exit 2."""
        super().error(self._with_suggestion(message))

    def _with_suggestion(self, message: str) -> str:
        # imported here: only a mistake reads the matches
        from empty_migrate.registry.loader import close_matches

        options = [s for parser in _declared(self) for s in _option_strings(parser)]
        given = getattr(self, "_given", [])
        unknown = [flag for flag in _flags(given) if _unknown(flag, options)]
        slips = [f"{flag}{close_matches(flag, options)}" for flag in unknown]
        if unknown and ("invalid choice" in message or "unrecognized" in message):
            # an unknown option's value is read as a command: the option is the slip
            return "unrecognized arguments: " + "; ".join(slips)
        value = message.partition("invalid choice: ")[2].partition(" (choose from")[0]
        if value:
            choices = [str(c) for a in self._actions for c in (a.choices or ())]
            return f"{message}{close_matches(value.strip(chr(39)), choices)}"
        return message


def _declared(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """`parser` and the commands' parsers under it that are declared."""
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, command in action.choices.items():
                if name not in getattr(action, "_undeclared", ()):
                    yield from _declared(command)


def _option_strings(parser: argparse.ArgumentParser) -> list[str]:
    return [s for action in parser._actions for s in action.option_strings]


def _flags(words: Sequence[str]) -> Iterator[str]:
    """The options among `words`, each without its ``=value``, up to ``--``."""
    for word in words:
        if word == "--":
            return
        if word.startswith("-") and len(word) > 1 and not _is_number(word):
            yield word.partition("=")[0]


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True


def _unknown(flag: str, options: Sequence[str]) -> bool:
    """Whether `flag` is no option, nor the start of one (argparse takes those)."""
    if flag.startswith("--"):
        return not any(option.startswith(flag) for option in options)
    return flag[:2] not in options


class _Commands(_SubParsers):
    """The commands, each declared (its options added) when the command is parsed.

    ``--help`` lists every command and its help from the start; a command's
    own options are added only when the command line names it, so parsing one
    command does not pay for declaring the others.
    """

    def __init__(self, *args: "Any", **kwargs: "Any") -> None:
        super().__init__(*args, **kwargs)
        self._undeclared: dict[str, Declare] = {}

    def add_command(self, name: str, text: str, declare: Declare) -> None:
        """Add command `name`, with its help `text`; `declare` adds its options."""
        self.add_parser(name, help=text)
        self._undeclared[name] = declare

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: "str | Sequence[Any] | None",
        option_string: str | None = None,
    ) -> None:
        """Declare the command named first in `values`, then parse as argparse does."""
        name = values[0] if isinstance(values, list) and values else None
        if isinstance(name, str) and name in self._undeclared:
            self._undeclared.pop(name)(self.choices[name])
        super().__call__(parser, namespace, values, option_string)


class _CodemodNames:
    """The codemods' names, as ``--only`` and ``--skip`` choose from them.

    Read from the codemods' declarations when argparse first checks or lists
    a choice: a command line without those options does not load them.
    """

    def __contains__(self, name: object) -> bool:
        return name in _codemod_names()

    def __iter__(self) -> Iterator[str]:
        return iter(_codemod_names())


def _codemod_names() -> list[str]:
    from empty_migrate import codemods  # their declarations: see _CodemodNames

    return codemods.names()


def add_format_option(
    parser: argparse.ArgumentParser,
    formats: Sequence[str] = ("text", "json"),
    aliases: Mapping[str, str] | None = None,
    note: str = "",
) -> None:
    """``--format``: one vocabulary across the commands.

    ``text`` (the default) and ``json`` everywhere, and a command's own beside
    them (``html`` where there is a page); `aliases` maps each other name a
    command takes (an old one, say) to its format, and ``--help`` lists them.
    """
    aliases = dict(aliases or {})
    names = "|".join(formats)
    said = [f"{old} is an old name for {new}" for old, new in aliases.items()]
    parser.add_argument(
        "--format",
        type=lambda name: aliases.get(name, name),
        choices=list(formats),
        default=formats[0],
        metavar=names,
        help=f"output format, {formats[0]} by default"
        + "".join(f"; {text}" for text in [*said, note] if text),
    )
