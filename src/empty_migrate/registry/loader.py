"""Load and validate the registry; every problem reads ``file:line: key: problem``.

The registry is one YAML file per eval in ``empty_migrate/registry/evals``.
YAML is parsed to nodes first so that every value keeps its line; pydantic then
validates the structure, and the checks below validate what the structure
cannot say (inheritance, cross-references, citations). A file's text that
passed is kept, as the entry it gave, in the user cache: a later run reads it
back without pydantic, which is most of what loading an entry costs.

A registry file is plain YAML: UTF-8, no duplicate keys, keys that are names,
no aliases (``*name``). The registry's own files use none, an alias's value
would carry its anchor's line (a problem found through it would name the
wrong line), and refusing them refuses alias bombs and aliases that refer to
themselves in the same rule, before anything is expanded.
"""

import sys
from collections.abc import Iterable, Iterator
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, cast

import yaml

from empty_migrate import codemods
from empty_migrate.analysis import citations
from empty_migrate.analysis.citations import line_citations, symbol_citations
from empty_migrate.entries import schema
from empty_migrate.entries.schema import (
    EvalEntry,
    ScorerEntry,
    prose,
    resolve,
    validate_entry,
)
from empty_migrate.errors import EmptyMigrateError
from empty_migrate.registry import EVALS_DIR, entry_files
from empty_migrate.runtime import policy
from empty_migrate.target import files
from empty_migrate.target.kept import code_digest, keep, key_of, recall
from empty_migrate.target.yaml_files import LOADER, compose_yaml, yaml_problem

Path_ = tuple[str | int, ...]

_DEEPEST = 50
"""How deep an entry may nest (the registry's own nest four levels)."""

_MESSAGES = {"unexpected_keyword_argument": "not a key the registry knows"}
"""Problems worded for a registry file rather than for Python's dataclasses."""


class RegistryError(EmptyMigrateError):
    """The registry is invalid; ``problems`` lists every problem found."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems: list[str] = problems


class Registry:
    """Every registered eval, by name; each entry is loaded when first asked for.

    A run reads only the entries it uses: a one-eval migration loads that
    eval's file, nothing else. `check` validates entries up front, so that a
    run reports every problem of the entries it will use before doing
    anything; `load_registry` checks all of them.
    """

    def __init__(self, directory: Path = EVALS_DIR) -> None:
        self.directory = directory
        self.files: dict[str, Path] = entry_files(directory)
        """Each eval's registry file, by eval name."""
        self._entries: dict[str, EvalEntry] = {}
        self._texts: dict[str, str] = {}

    @property
    def names(self) -> list[str]:
        """Every registered eval's name, sorted."""
        return list(self.files)

    @property
    def evals(self) -> dict[str, EvalEntry]:
        """Every entry, by name.

        Raises:
            RegistryError: With every problem of every entry.
        """
        self.check()
        return {name: self._entries[name] for name in self.files}

    def get(self, name: str) -> EvalEntry:
        """The entry of one eval.

        Raises:
            KeyError: If no eval has that name; the message names close matches.
            RegistryError: If its file has problems, with every one of them.
        """
        if name not in self.files:
            raise KeyError(unknown_name_message("eval", name, self.files))
        if name not in self._entries:
            self.check([name])
        return self._entries[name]

    @property
    def texts(self) -> dict[str, str]:
        """Each registry file's text, by eval name ("" if it cannot be read).

        Read once, unvalidated: for cheap first cuts (`mentioning`, the task
        index) that the entries then decide.
        """
        if not self._texts:
            self._texts = {name: _readable(path) for name, path in self.files.items()}
        return self._texts

    def mentioning(self, text: str) -> list[str]:
        """The evals whose registry file holds `text` (a scorer's file, say).

        A cheap first cut, read from the files as text: the entries decide.
        """
        return [name for name, source in self.texts.items() if text in source]

    def check(self, names: Iterable[str] | None = None) -> None:
        """Load and validate the named entries (all if None), once each.

        Raises:
            RegistryError: With every problem in every one of those files,
                each as ``file:line: key: problem``.
        """
        problems: list[str] = []
        for name in self.names if names is None else names:
            if name in self._entries:
                continue
            entry, found = load_entry(self.files[name])
            problems += found
            if entry is not None and not found:
                self._entries[name] = entry
        if problems:
            raise RegistryError(problems)


def unknown_name_message(kind: str, name: str, known: Iterable[str]) -> str:
    """``unknown eval 'xtest'; did you mean 'xstest'?``."""
    return f"unknown {kind} {name!r}{close_matches(name, known)}"


def close_matches(name: str, known: Iterable[str]) -> str:
    """``; did you mean 'xstest'?`` for the names in `known` close to `name`, or ""."""
    close = similar_names(name, known)
    return f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""


# difflib's similarity (2 x matched characters / both lengths) a suggestion
# reaches: a typo of a name of four letters or more (one letter changed,
# swapped, added or lost) does; names that share only a word, as
# oxdna_simple and simpleqa (0.6) or starsim_benchmark and vstar_bench
# (0.71), do not
SIMILAR_ENOUGH = 0.75


def similar_names(name: str, known: Iterable[str], most: int = 3) -> list[str]:
    """The names in `known` that `name` may be a slip for, the closest first.

    Those spelled almost alike (`SIMILAR_ENOUGH`); when there are none, those
    that are `name` with words added after it or taken off (``gsm8k`` for
    ``gsm8k_typo``, ``preset_score_on_no_response`` for ``preset_score``).
    """
    from difflib import SequenceMatcher

    candidates = [c for c in dict.fromkeys(known) if c != name]
    similarity = {
        # a name in other letter case (XSTest, as an eval's title spells it) is
        # the closest match there is
        c: SequenceMatcher(None, name.casefold(), c.casefold(), autojunk=False).ratio()
        for c in candidates
    }
    close = [c for c in candidates if similarity[c] >= SIMILAR_ENOUGH]
    close = close or [c for c in candidates if _words_added(name, c)]
    return sorted(close, key=lambda c: -similarity[c])[:most]


def _words_added(one: str, other: str) -> bool:
    short, long = sorted((one, other), key=len)
    return len(short) >= 3 and long.startswith(short + "_")


def load_registry(directory: Path = EVALS_DIR) -> Registry:
    """Load and validate every ``<eval>.yaml`` in `directory`.

    Raises:
        RegistryError: With every problem in every file, each as
            ``file:line: key: problem``.
    """
    registry = Registry(directory)
    registry.check()
    return registry


def load_entry(path: Path) -> tuple[EvalEntry | None, list[str]]:
    """Load one entry; returns it (or None) and the problems found in it.

    A text validated before (by this version of the schema and its checks) is
    read back from the user cache, without validating it again.
    """
    try:
        text = _entry_text(path)
    except RegistryError as error:
        return None, error.problems
    key = key_of(_checked_by(), text)
    entry = recall("registry", key)
    if isinstance(entry, EvalEntry):
        return entry, []
    entry, problems = _validated(path, text)
    if entry is not None and not problems:
        keep("registry", key, entry)
    return entry, problems


def _entry_text(path: Path) -> str:
    """The text of one registry file.

    Raises:
        RegistryError: If it is not a file, cannot be read or is not UTF-8.
    """
    if path.exists() and not path.is_file():  # a folder, or a pipe that would hang
        raise RegistryError([f"{path}: not a file; an entry is a file <eval>.yaml"])
    try:
        data = path.read_bytes()
    except OSError as error:
        problem = f"{path}: cannot be read: {error.strerror or error}"
        raise RegistryError([problem]) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        byte = data[error.start]
        problem = (
            f"{path}:{line}: (file): not UTF-8 (byte 0x{byte:02x}); save it as UTF-8"
        )
        raise RegistryError([problem]) from None


def _readable(path: Path) -> str:
    """The text of a registry file, or "" if it cannot be read (its load says why)."""
    try:
        return _entry_text(path)
    except RegistryError:
        return ""


@cache
def _checked_by() -> str:
    """What decides whether a text is a valid entry: the code that checks it."""
    checks = [schema, policy, citations, files, sys.modules[__name__]]
    return code_digest(checks, *codemods.names())


def _validated(path: Path, text: str) -> tuple[EvalEntry | None, list[str]]:
    """Validate one entry's text; returns it (or None) and its problems."""
    from pydantic import ValidationError  # only a new text is validated

    try:
        node = _composed(text)
    except yaml.YAMLError as error:
        line, problem = yaml_problem(error)
        return None, [f"{path}:{line}: (yaml): {problem}"]
    if node is None:
        return None, [f"{path}:1: (file): empty registry entry"]
    plain = _Plain(node)
    if plain.malformed:
        return None, [
            f"{path}:{line}: {_dotted(loc) or '(entry)'}: {problem}"
            for line, loc, problem in plain.malformed
        ]
    data, lines = plain.data, plain.lines
    try:
        entry = validate_entry(data)
    except ValidationError as error:
        return None, [
            _located(path, lines, e["loc"], _message(e)) for e in error.errors()
        ]
    return entry, [_located(path, lines, loc, msg) for loc, msg in check_entry(entry)]


def _message(error: Any) -> str:
    """A pydantic error's problem, worded for a registry file."""
    if error["type"] == "value_error":  # a Rule's own words, without "Value error, "
        return str(error["ctx"]["error"])
    return cast(str, _MESSAGES.get(error["type"], error["msg"]))


def _composed(text: str) -> yaml.Node | None:
    """The node tree of an entry's text, refusing aliases before any is expanded.

    Raises:
        yaml.YAMLError: If the text is not one YAML document or has an alias.
    """
    if "*" in text:  # only then can it hold an alias (written *name)
        for event in yaml.parse(text, Loader=LOADER):
            if isinstance(event, yaml.AliasEvent):
                raise yaml.MarkedYAMLError(
                    problem=f"alias *{event.anchor}: a registry file takes no "
                    "aliases; write the value out",
                    # libyaml's marks are its own class, with the same fields
                    problem_mark=cast(yaml.Mark, event.start_mark),
                )
    return compose_yaml(text)


_REFUSED = object()
"""The value of a node `_Plain` refused."""


class _Plain:
    """A YAML node tree as Python values, with the line of every path.

    `malformed` lists what makes the tree no registry entry, each as (line,
    path, problem): a duplicate key, a key that is a mapping or a list, a value
    that is not what its tag says, nesting past `_DEEPEST`.
    """

    def __init__(self, root: yaml.Node) -> None:
        self.lines: dict[Path_, int] = {}
        self.malformed: list[tuple[int, Path_, str]] = []
        self._constructor = yaml.constructor.SafeConstructor()
        self.data = self._walk(root, ())

    def _walk(self, node: yaml.Node, path: Path_) -> Any:
        self.lines.setdefault(path, node.start_mark.line + 1)
        if len(path) > _DEEPEST:
            return self._refuse(node, (), f"nested deeper than {_DEEPEST} levels")
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            return [self._walk(item, (*path, i)) for i, item in enumerate(node.value)]
        return self._scalar(node, path)

    def _mapping(self, node: yaml.MappingNode, path: Path_) -> dict[Any, Any]:
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = self._key(key_node, path)
            if key is _REFUSED:
                continue
            if key in result:
                first = self.lines[(*path, key)]
                problem = f"duplicate key (the first is on line {first})"
                self._refuse(key_node, (*path, key), problem)
                continue
            self.lines[(*path, key)] = key_node.start_mark.line + 1
            result[key] = self._walk(value_node, (*path, key))
        return result

    def _key(self, node: yaml.Node, path: Path_) -> Any:
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node, path)
        kind = "mapping" if isinstance(node, yaml.MappingNode) else "list"
        return self._refuse(node, path, f"a key is a {kind}, not a name")

    def _scalar(self, node: yaml.Node, path: Path_) -> Any:
        try:
            return self._constructor.construct_object(node, deep=True)
        except yaml.YAMLError as error:  # a tag it has no constructor for
            return self._refuse(node, path, yaml_problem(error)[1])
        except Exception:  # not what its tag says (see target.yaml_files)
            kind = node.tag.rsplit(":", 1)[-1]
            problem = f"{node.value!r} is not a valid {kind}; quote it to keep it text"
            return self._refuse(node, path, problem)

    def _refuse(self, node: yaml.Node, path: Path_, problem: str) -> object:
        self.malformed.append((node.start_mark.line + 1, path, problem))
        return _REFUSED


def located(path: Path, loc: Path_, problem: str) -> str:
    """A problem at `loc` of the entry in file `path`, as ``file:line: key: problem``.

    For checks made after loading (`registry validate`'s): the file is read
    again for its lines, only when there is a problem to place.
    """
    return _located(path, _key_lines(path, path.stat().st_mtime_ns), loc, problem)


@lru_cache(maxsize=16)
def _key_lines(path: Path, mtime_ns: int) -> dict[Path_, int]:
    """The line of every key path of a loaded entry's file (it parsed when loaded)."""
    node = _composed(_entry_text(path))
    return _Plain(node).lines if node is not None else {}


def _located(path: Path, lines: dict[Path_, int], loc: Path_, msg: str) -> str:
    loc = tuple(part for part in loc if not _is_union_tag(part))
    for end in range(len(loc), -1, -1):
        if loc[:end] in lines:
            return f"{path}:{lines[loc[:end]]}: {_dotted(loc) or '(entry)'}: {msg}"
    return f"{path}:1: {_dotted(loc)}: {msg}"


def _is_union_tag(part: str | int) -> bool:
    # pydantic names the union member it tried ("list[...]", "literal['none']")
    return isinstance(part, str) and ("[" in part or part in {"str", "int", "float"})


def _dotted(loc: Path_) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text.lstrip(".")


def check_entry(entry: EvalEntry) -> Iterator[tuple[Path_, str]]:
    """What the schema cannot say: citations, cross-references, inheritance."""
    yield from _check_citations(entry)
    if isinstance(entry.codemods, str) and not entry.codemods_reason:
        yield ("codemods",), f"{entry.codemods!r} needs a codemods_reason"
    known = codemods.names()
    for i, name in enumerate(
        entry.codemods if isinstance(entry.codemods, list) else []
    ):
        if name not in known:
            yield ("codemods", i), unknown_name_message("codemod", name, known)
    updates_tests = (
        isinstance(entry.codemods, list) and "update_tests" in entry.codemods
    )
    if bool(entry.test_updates) != updates_tests:
        yield ("test_updates",), "test_updates and the update_tests codemod go together"
    for i, scorer in enumerate(entry.scorers):
        if not scorer.rewrite and not scorer.note:
            yield ("scorers", i, "rewrite"), "rewrite: false needs a note saying why"
        for task in scorer.tasks or []:
            if task not in entry.tasks:
                yield ("scorers", i, "tasks"), f"task {task!r} is not in tasks"
        yield from (
            (("scorers", i, *loc), msg) for loc, msg in _check_resolved(entry, scorer)
        )
    for task in entry.tasks:
        yield from (
            (("tasks", task, *loc), msg) for loc, msg in _check_task(entry, task)
        )


def _check_citations(entry: EvalEntry) -> Iterator[tuple[Path_, str]]:
    """Prose cites code by symbol, never by lines; ``today`` must cite it."""
    lines = False
    for loc, text in prose(entry):
        for cited in line_citations(text):
            lines = True
            yield loc, f"{cited!r} cites lines, which move: {CITE_BY_SYMBOL}"
    if not lines and not symbol_citations(entry.today):
        yield ("today",), f"cites no code: {CITE_BY_SYMBOL}"


CITE_BY_SYMBOL = "cite the code as path::symbol (xstest/xstest.py::xstest_scorer)"
"""How prose cites code, for a problem that says what to write instead."""


def _check_resolved(
    entry: EvalEntry, scorer: ScorerEntry
) -> Iterator[tuple[Path_, str]]:
    for task in entry.tasks_of(scorer):
        settings = resolve(entry, task, scorer)
        where = f" (in task {task!r})" if task else ""
        if settings.polarity == "per_sample" and not settings.polarity_key:
            yield ("polarity",), f"per_sample polarity needs polarity_key{where}"
        if settings.polarity == "per_sample" and not settings.polarity_labels:
            yield ("polarity",), f"per_sample polarity needs polarity_labels{where}"
        if settings.category == "safety" and settings.refusal_verdict is None:
            yield ("refusal_verdict",), f"a safety scorer needs refusal_verdict{where}"


def _check_task(entry: EvalEntry, task: str) -> Iterator[tuple[Path_, str]]:
    settings = resolve(entry, task)
    if settings.polarity == "per_sample" and not settings.polarity_key:
        yield ("polarity",), "per_sample polarity needs polarity_key"
