"""Comments that sit on code a codemod changed: notes for a maintainer to review.

A comment describes the code under it (a comment on its own line) or on its
line (a trailing comment). When a codemod changes that code, the comment may
no longer be true: "an empty response answers nothing, so it is incorrect"
above a call that now scores ``NOANSWER``. The tool never rewrites prose; it
reports each such comment with the codemods that changed the code, and the
maintainer decides.

One rule, from the diff, for every codemod: the comments of the text before
and after a rewrite are matched in order by their text (`difflib`). A comment
only the text after has was written by a codemod and is never flagged. A
matched comment is flagged when the code it is attached to differs, as `ast`
sees it, so formatting and comments do not count. A comment is attached to:

- on its own line, the outermost node (statement, argument, keyword...) that
  starts on the next code line at the comment's column, with only comment
  lines between (a blank line, or another column, attaches it to nothing);
- trailing, the outermost node that starts and ends on its line, else the
  innermost statement around the line.

A block (``if``, ``for``, ``try``...) is compared whole; a function or class
by its header (decorators, signature, bases): a comment above ``def score`` is
not flagged for a change deep inside, the comments next to that change are.
Within a statement, a part that starts a line of its own (an argument of a
call laid out one per line) is left out: ``# define task`` above ``return
Task(`` is not flagged when only ``scorer=``, on its own line, changed. An
import is never the code a comment is flagged for (dropping an imported name
changes no behaviour), and a pragma (``# noqa``, ``# type: ignore``) is not
prose.
"""

import ast
import copy
import difflib
import functools
import io
import math
import re
import sys
import tokenize
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeGuard

from empty_migrate.analysis.syntax import Positioned, first_line, has_position
from empty_migrate.target.kept import code_digest, keep, key_of, recall

__all__ = ["CommentReview", "ReviewNote", "follow"]

_NEWLINE = re.compile(r"\r\n|\r|\n")
"""The line ends `ast` and `tokenize` count (``str.splitlines`` counts more)."""
_PRAGMA = re.compile(r"#\s*(noqa|type:|pragma|fmt:|pyright:|mypy:|ruff:|isort:)")
_HEADERS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_IMPORTS = (ast.Import, ast.ImportFrom, ast.alias)


@dataclass(frozen=True)
class ReviewNote:
    """A comment on code the migration changed, for a person to check.

    Attributes:
        line: The comment's first line in the file's text after the migration.
        comment: The comment's lines (a block of own-line comments is one note).
        codemods: The codemods that changed the code it is attached to.
        trailing: True for a comment at the end of a line of code.
    """

    line: int
    comment: str
    codemods: tuple[str, ...]
    trailing: bool = False

    def describe(self, path: str) -> str:
        """One line: ``path:line: comment above changed code (codemod): "# ..."``."""
        where = "on" if self.trailing else "above"
        text = " ".join(line.strip() for line in self.comment.splitlines())
        return (
            f"{path}:{self.line}: comment {where} changed code "
            f'({", ".join(self.codemods)}): "{text}"'
        )

    def as_json(self) -> dict[str, object]:
        """The note as JSON data."""
        return {
            "line": self.line,
            "comment": self.comment,
            "codemods": list(self.codemods),
            "trailing": self.trailing,
        }


@dataclass(frozen=True)
class _Comment:
    line: int
    column: int
    text: str
    own_line: bool


@dataclass
class _Module:
    """One text's comments, and the code each is attached to."""

    comments: list[_Comment]
    tree: ast.Module
    lines: list[str]
    _starts: dict[tuple[int, int], Positioned] = field(default_factory=dict)
    _one_line: dict[int, Positioned] = field(default_factory=dict)
    _statements: list[ast.stmt] = field(default_factory=list)

    @classmethod
    def of(
        cls, text: str, parse: Callable[[str], ast.Module] = ast.parse
    ) -> "_Module | None":
        """The module's analysis; None if it does not tokenize or parse."""
        comments = _comments(text)
        if comments is None:
            return None
        try:
            tree = parse(text)
        except (SyntaxError, ValueError):
            return None
        return cls(list(comments), tree, _NEWLINE.split(text))

    def _index(self) -> None:
        if self._statements:
            return
        for node in ast.walk(self.tree):  # breadth first: outer nodes first
            if not has_position(node):  # the module itself has none
                continue
            self._starts.setdefault((first_line(node), node.col_offset), node)
            if node.lineno == node.end_lineno:
                self._one_line.setdefault(node.lineno, node)
            if isinstance(node, ast.stmt):
                self._statements.append(node)

    def subject(self, comment: _Comment) -> Positioned | None:
        """The code `comment` is attached to, if any."""
        self._index()
        if not comment.own_line:
            return self._one_line.get(comment.line) or self._around(comment.line)
        for number in range(comment.line + 1, len(self.lines) + 1):
            code = self.lines[number - 1].strip()
            if not code:
                return None
            if not code.startswith("#"):
                return self._starts.get((number, comment.column))
        return None

    def _around(self, line: int) -> ast.stmt | None:
        spans = [s for s in self._statements if s.lineno <= line <= (s.end_lineno or 0)]
        return min(spans, key=lambda s: (s.end_lineno or 0) - s.lineno, default=None)


@functools.lru_cache(maxsize=16)
def _comments(text: str) -> tuple[_Comment, ...] | None:
    """The comments of a text, in order; None if it does not tokenize.

    Kept for the last few texts: the text a file's review ends on is read
    again when its notes follow the formatter. Kept in the user cache too,
    under the text, this code and the Python that tokenized it: tokenizing is
    most of a review, and a run's texts are mostly the last run's again.
    """
    key = key_of(sys.version, _code_of_review(), text)
    kept = recall("comments", key)
    if isinstance(kept, tuple):
        return kept
    found = _tokenized_comments(text)
    if found is not None:
        keep("comments", key, found)
    return found


@functools.cache
def _code_of_review() -> str:
    return code_digest([sys.modules[__name__]])


def _tokenized_comments(text: str) -> tuple[_Comment, ...] | None:
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (SyntaxError, tokenize.TokenError, ValueError):
        return None
    return tuple(
        _Comment(
            token.start[0],
            token.start[1],
            token.string.rstrip(),
            not token.line[: token.start[1]].strip(),
        )
        for token in tokens
        if token.type == tokenize.COMMENT
    )


def _code(node: Positioned, lines: list[str]) -> str:
    """What the code under a comment does, as `ast` sees it.

    A block (``if``, ``for``, ``with``, ``try``...) is compared whole; a
    definition by its header. Within a statement or an expression, a part
    that starts a line of its own (an argument of a call laid out one per
    line) is left out: a comment above ``return Task(`` is about the call, and
    a comment about ``scorer=...`` sits above that line.
    """
    if _compared_whole(node):
        return ast.dump(node)
    if isinstance(node, _HEADERS):
        node = copy.copy(node)
        node.body = []
    return ast.dump(_Outline(node, lines).visit(copy.deepcopy(node)))


def _compared_whole(node: ast.AST) -> bool:
    """Whether `_code` compares a node whole: a block that is not a definition."""
    return (
        isinstance(node, ast.stmt)
        and hasattr(node, "body")
        and not isinstance(node, _HEADERS)
    )


def _starts_a_later_line(
    part: ast.AST, first: int, lines: list[str]
) -> TypeGuard[Positioned]:
    """Whether a part starts a line of its own after line `first`: `_code` drops it."""
    if not has_position(part) or part.lineno <= first:
        return False
    before = lines[part.lineno - 1].encode("utf-8")[: part.col_offset]  # UTF-8 bytes
    return not before.strip()


class _Outline(ast.NodeTransformer):
    """Replaces each part of a node that starts a later line by a placeholder."""

    def __init__(self, root: Positioned, lines: list[str]) -> None:
        self.first = first_line(root)
        self.lines = lines

    def visit(self, node: ast.AST) -> ast.AST:
        if _starts_a_later_line(node, self.first, self.lines):
            return ast.Constant("...")
        return self.generic_visit(node)


def _pairs(old: list[_Comment], new: list[_Comment]) -> list[tuple[int, int]]:
    """Indices of the same comment before and after, matched in order by text."""
    matcher = difflib.SequenceMatcher(
        None, [c.text for c in old], [c.text for c in new], autojunk=False
    )
    return [
        (block.a + k, block.b + k)
        for block in matcher.get_matching_blocks()
        for k in range(block.size)
    ]


def _changed(old: _Module, before: _Comment, new: _Module, after: _Comment) -> bool:
    """Whether the code `before` was attached to is not what `after` is on now."""
    if _PRAGMA.match(before.text):
        return False
    was, now = old.subject(before), new.subject(after)
    if was is None or isinstance(was, _IMPORTS) or isinstance(now, _IMPORTS):
        return False
    return now is None or _code(was, old.lines) != _code(now, new.lines)


class CommentReview:
    """Follows one Python file's comments through the codemods that rewrite it.

    Give it the file's text, then each rewrite in order (`rewritten`); `notes`
    are then the comments of the last text whose code some rewrite changed.
    Each rewrite costs a line diff; the comments and the code they sit on are
    read once, from the first and the last text, and only if some rewrite
    happened. A text that does not parse has no notes.

    Args:
        text: The file's text before the first rewrite.
        parse: How to parse a text (a cache of parsed trees, say); `ast.parse`
            by default.
    """

    def __init__(
        self, text: str, parse: Callable[[str], ast.Module] = ast.parse
    ) -> None:
        self._first = text
        self._last = text
        self._parse = parse
        self._lines = _Lines(text)

    def rewritten(self, text: str, codemod: str | None) -> None:
        """Take the next text; `codemod` made it (None: only formatted)."""
        if self._first:  # a new file has no comment to flag: nothing to follow
            self._lines.follow(self._last, text, codemod)
        self._last = text

    def notes(self) -> tuple[ReviewNote, ...]:
        """The flagged comments of the last text; a block of lines is one note."""
        if not self._lines.touched or not _comments(self._first):
            return ()  # a new file, or one without comments, has none to flag
        old = _Module.of(self._first, self._parse)
        if old is None:
            return ()
        # only a comment over code some codemod touched can be flagged
        touched: dict[int, tuple[str, ...]] = {}
        for index, comment in enumerate(old.comments):
            subject = old.subject(comment)
            if subject is not None:
                names = self._lines.changed_by(_code_lines(subject, old.lines))
                if names:
                    touched[index] = names
        new = _Module.of(self._last, self._parse) if touched else None
        if new is None:
            return ()
        flags = {
            j: touched[i]
            for i, j in _pairs(old.comments, new.comments)
            if i in touched and _changed(old, old.comments[i], new, new.comments[j])
        }
        return _grouped(new.comments, flags)


class _Lines:
    """Which of the first text's lines each rewrite changed, by line diffs.

    ``origin[k]`` is where the current text's line ``k + 1`` comes from in the
    first text: ``(n, n)`` for its line n, ``(n, m)`` for a line a rewrite
    made of lines n to m, and ``(n + 0.5, n + 0.5)`` for a line added between
    its lines n and n + 1.
    """

    def __init__(self, text: str) -> None:
        count = len(_NEWLINE.split(text))
        self.origin: list[tuple[float, float]] = [(n, n) for n in range(1, count + 1)]
        self.touched: list[tuple[str, list[tuple[float, float]]]] = []
        """Each codemod's rewrite, with the spans of the first text it changed."""

    def follow(self, old: str, new: str, codemod: str | None) -> None:
        """Map `new`'s lines back to the first text; note what `codemod` changed."""
        if old == new:  # every line is where it was, and none changed
            return
        a, b = _NEWLINE.split(old), _NEWLINE.split(new)
        matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
        origin: list[tuple[float, float]] = []
        changed: list[tuple[float, float]] = []
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                origin += self.origin[i1:i2]
                continue
            span = self._span(i1, i2)
            changed.append(span)
            origin += [span] * (j2 - j1)
        self.origin = origin
        if codemod is not None and changed:
            self.touched.append((codemod, changed))

    def _span(self, start: int, end: int) -> tuple[float, float]:
        """Where current lines ``start + 1..end`` (none: the gap at start) come from."""
        if end > start:
            return self.origin[start][0], self.origin[end - 1][1]
        before = self.origin[start - 1][1] if start else 0
        gap = math.floor(before) + 0.5
        return gap, gap

    def changed_by(self, lines: set[int]) -> tuple[str, ...]:
        """The codemods whose rewrites changed any of the first text's `lines`."""
        return tuple(
            dict.fromkeys(
                codemod
                for codemod, spans in self.touched
                if any(_overlaps(span, lines) for span in spans)
            )
        )


def _overlaps(span: tuple[float, float], lines: set[int]) -> bool:
    """Whether a changed span falls on `lines`, or between two of them."""
    low, high = span
    if any(low <= line <= high for line in lines):
        return True
    return math.floor(low) in lines and math.ceil(high) in lines


def _code_lines(node: Positioned, lines: list[str]) -> set[int]:
    """The lines of the code `_code` compares: where a change can change it."""
    first = first_line(node)
    if isinstance(node, _HEADERS):
        body = node.body[0].lineno
        last = body - 1 if body > first else first
    else:
        last = node.end_lineno or first
    if _compared_whole(node):
        return set(range(first, last + 1))
    left_out: set[int] = set()
    for part in ast.walk(node):
        if (
            part is not node
            and _starts_a_later_line(part, first, lines)
            and part.lineno <= last
        ):
            end = part.end_lineno or part.lineno
            left_out.update(range(part.lineno, end + 1))
    return set(range(first, last + 1)) - left_out


def _grouped(
    comments: list[_Comment], flags: dict[int, tuple[str, ...]]
) -> tuple[ReviewNote, ...]:
    """The flagged comments as notes; a block of own-line comments is one note."""
    notes: list[ReviewNote] = []
    previous: _Comment | None = None
    for index in sorted(flags):
        comment, names = comments[index], flags[index]
        if (
            notes
            and previous is not None
            and comment.own_line
            and previous.own_line
            and comment.line == previous.line + 1
            and comment.column == previous.column
        ):
            last = notes[-1]
            merged = tuple(dict.fromkeys((*last.codemods, *names)))
            notes[-1] = ReviewNote(last.line, f"{last.comment}\n{comment.text}", merged)
        else:
            notes.append(
                ReviewNote(comment.line, comment.text, names, not comment.own_line)
            )
        previous = comment
    return tuple(notes)


def follow(
    notes: tuple[ReviewNote, ...], before: str, after: str
) -> tuple[ReviewNote, ...]:
    """The notes on `before` moved to their lines in `after` (formatted, say).

    A note whose comment `after` no longer has is dropped.
    """
    if not notes:
        return ()
    old, new = _comments(before), _comments(after)
    if old is None or new is None:
        return ()
    moved = {old[i].line: new[j].line for i, j in _pairs(list(old), list(new))}
    return tuple(
        ReviewNote(moved[note.line], note.comment, note.codemods, note.trailing)
        for note in notes
        if note.line in moved
    )
