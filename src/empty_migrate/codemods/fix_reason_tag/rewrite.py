"""fix_reason_tag: give scores on a model's non-answer path Inspect's ``reason``.

A scorer that returns early on an empty answer usually writes a bare
``Score(value=...)``: the log cannot tell the non-answer from a wrong answer.
In registered scorer constructs, every ``return Score(...)`` without
``reason=`` on a non-answer path gets ``reason="no_response"`` (``"refusal"``
when the path holds only refusal outcomes), and an ``explanation=`` if it has
none. ``value=`` is never changed: tags only, safe.

A non-answer path is the block directly under a check of the model under
test's output (``O`` and its completion as in ``_empty_checks``), before or
after ``replace_dead_check``:

* the ``if`` block of ``not C``, ``C == ""``, ``not O``, ``O.empty`` (and
  ``not`` / ``and`` / ``or`` of checks), where ``C`` may be normalised
  (``not raw.strip().splitlines()``), or of ``classify(O) is Outcome.X`` /
  ``in {...}`` / ``is not Outcome.ANSWERED`` whose outcomes exclude
  ``ANSWERED``;
* the ``else`` block of the opposite checks (``if C:``, ``classify(O) is
  Outcome.ANSWERED``), and the statement right after such an ``if`` when its
  block always returns or raises.

Only a ``return`` directly in that block, after nothing but expression
statements (a log call), counts: an assignment before it may recover an answer
(code read from the sandbox), and a score deeper down (in a ``try``, a loop,
an ``elif``) may be another failure. Positions are reviewed in the golden
cases: ``reason=`` (and ``explanation=``) go last, keeping a magic trailing
comma. The scan's ``rewrite: false`` does not exempt an inner scorer (see
``_empty_checks.constructs``). Scores behind
other checks (an extracted answer or code block that is empty, a sandbox
error, a judge's reply, a ``classify`` imported from elsewhere) are left
alone, as is every ``state.output`` of a construct whose registry ``output``
is not ``state.output``. The reason is the constant ``NO_RESPONSE`` /
``REFUSAL`` from ``inspect_evals.utils.scorers`` when the file already
imports reason constants from there, else the string.
"""

from collections.abc import Sequence
from typing import Literal

import libcst as cst

from empty_migrate.analysis.syntax import Imports, imports_of
from empty_migrate.codemods.kit.base import Codemod, EvalTarget
from empty_migrate.codemods.kit.chunks import Chunks
from empty_migrate.codemods.kit.empty_checks import (
    ConstructCommand,
    constructs,
    is_score_call,
    outputs,
    run_command,
)
from empty_migrate.codemods.kit.imports import NeededImports
from empty_migrate.codemods.kit.nodes import (
    is_attribute,
    is_call_of,
    is_empty_string,
    refers_to,
)
from empty_migrate.codemods.kit.router_call import ROUTER_MODULE
from empty_migrate.runtime.policy import Outcome

Kind = Literal["no_output", "refusal", "non_answer"]
Branch = tuple[Literal["body", "orelse"], Kind]

SCORERS_MODULE = "inspect_evals.utils.scorers"
REASON_CONSTANTS = {
    "INVALID_RESPONSE_FORMAT",
    "REFUSAL",
    "NO_RESPONSE",
    "GRADER_FAILED",
    "SCORING_FAILED",
}
_REASONS: dict[Kind, tuple[str, str]] = {
    "no_output": ("NO_RESPONSE", "no_response"),
    "non_answer": ("NO_RESPONSE", "no_response"),
    "refusal": ("REFUSAL", "refusal"),
}
_EXPLANATIONS: dict[Kind, str] = {
    "no_output": "The model produced no output.",
    "non_answer": "The model gave no answer to score.",
    "refusal": "The model refused to answer.",
}
_REFUSALS = {Outcome.REFUSED, Outcome.REFUSED_AFTER_PARTIAL, Outcome.FILTERED}


class FixReasonTag(Codemod):
    """Tag scores returned on non-answer paths with ``reason=``."""

    def files(self, target: EvalTarget) -> list[str]:  # noqa: D102
        if not self.applies(target):
            return []
        reading = [s for s in target.entry.scorers if outputs(target, s) != {"none"}]
        return sorted({target.source(s.file) for s in reading})

    def transform(self, text: str, path: str, target: EvalTarget) -> str:  # noqa: D102
        relative = path.removeprefix("src/inspect_evals/")
        command = _Tag(NeededImports(), constructs(target, relative))
        return run_command(command, text, target)


class _Tag(ConstructCommand):
    def __init__(self, imports: NeededImports, constructs: dict[str, bool]) -> None:
        super().__init__(imports, constructs, solvers=False)
        self.imported: Imports  # read from the whole module by `prepare`
        self.tagged: dict[cst.Return, Kind] = {}

    def prepare(self, chunks: Chunks) -> None:
        super().prepare(chunks)
        self.imported = imports_of(chunks.tree)

    def visit_If(self, node: cst.If) -> None:
        if not self.active or (branch := self._branch(node.test)) is None:
            return
        side, kind = branch
        if side == "body":
            self._mark(_first_return(_lines(node.body)), kind)
        elif isinstance(node.orelse, cst.Else):
            self._mark(_first_return(_lines(node.orelse.body)), kind)

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        if not self.active:
            return
        for statement, after in zip(node.body, node.body[1:], strict=False):
            kind = self._guard(statement)
            if kind is not None:
                self._mark(_first_return([after]), kind)

    def leave_Return(self, original: cst.Return, updated: cst.Return) -> cst.Return:
        kind = self.tagged.get(original)
        if kind is None:
            return updated
        # marked only when its value is a Score(...) call (`_taggable`)
        call = cst.ensure_type(updated.value, cst.Call)
        return updated.with_changes(value=self._tag(call, kind))

    def _guard(self, statement: cst.BaseStatement) -> Kind | None:
        """The kind of an ``if <answered>:`` with no else whose block always exits."""
        if not isinstance(statement, cst.If) or statement.orelse is not None:
            return None
        branch = self._branch(statement.test)
        if branch is None or branch[0] != "orelse":
            return None
        return branch[1] if _always_exits(statement.body) else None

    def _mark(self, statement: cst.Return | None, kind: Kind) -> None:
        if statement is not None and _taggable(statement.value):
            self.tagged[statement] = kind

    def _branch(self, test: cst.BaseExpression) -> Branch | None:
        """Which block of ``if test`` is a non-answer path, and of what kind."""
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            inner = self._branch(test.expression)
            return (_flip(inner[0]), inner[1]) if inner else None
        if isinstance(test, cst.BooleanOperation):
            return _combine(test, self._branch(test.left), self._branch(test.right))
        if isinstance(test, cst.Comparison):
            return self._classified(test) or self._compared(test)
        if self.reader.output(test) is not None:
            return "orelse", "no_output"
        if is_attribute(test, "empty"):
            found = self.reader.output(test.value) is not None
            return ("body", "no_output") if found else None
        return ("orelse", "non_answer") if self.reader.derived(test) else None

    def _compared(self, test: cst.Comparison) -> Branch | None:
        """``C == ""`` or ``C != ""`` for a completion ``C``."""
        if len(test.comparisons) != 1:
            return None
        operator, right = test.comparisons[0].operator, test.comparisons[0].comparator
        if not is_empty_string(right) or self.reader.derived(test.left) is None:
            return None
        if isinstance(operator, cst.Equal):
            return "body", "non_answer"
        return ("orelse", "non_answer") if isinstance(operator, cst.NotEqual) else None

    def _classified(self, test: cst.Comparison) -> Branch | None:
        """``classify(O) is Outcome.X`` and its variants, if the router's."""
        if len(test.comparisons) != 1 or not self._is_classification(test.left):
            return None
        target = test.comparisons[0]
        outcomes = self._outcomes(target.comparator)
        if outcomes is None:
            return None
        if isinstance(target.operator, cst.IsNot | cst.NotEqual | cst.NotIn):
            outcomes = set(Outcome) - outcomes
        elif not isinstance(target.operator, cst.Is | cst.Equal | cst.In):
            return None
        if Outcome.ANSWERED not in outcomes:
            return "body", _kind(outcomes)
        rest = set(Outcome) - outcomes
        return ("orelse", _kind(rest)) if Outcome.ANSWERED not in rest else None

    def _is_classification(self, expr: cst.BaseExpression) -> bool:
        """``classify(...)`` or ``classify_output(...).outcome``, the router's."""
        if is_call_of(expr, self.imported, f"{ROUTER_MODULE}.classify"):
            return True
        detailed = f"{ROUTER_MODULE}.classify_output"
        return is_attribute(expr, "outcome") and is_call_of(
            expr.value, self.imported, detailed
        )

    def _outcomes(self, expr: cst.BaseExpression) -> set[Outcome] | None:
        """The outcomes named by ``Outcome.X`` or a tuple, list or set of them."""
        elements = getattr(expr, "elements", None)
        members = [e.value for e in elements] if elements is not None else [expr]
        found = set()
        for member in members:
            if not isinstance(member, cst.Attribute):
                return None
            if not refers_to(member.value, self.imported, f"{ROUTER_MODULE}.Outcome"):
                return None
            if member.attr.value not in Outcome.__members__:
                return None
            found.add(Outcome[member.attr.value])
        return found

    def _tag(self, call: cst.Call, kind: Kind) -> cst.Call:
        added = []
        if not _has_keyword(call, "explanation"):
            text = cst.SimpleString(f'"{_EXPLANATIONS[kind]}"')
            added.append(_keyword("explanation", text))
        added.append(_keyword("reason", self._reason(kind)))
        if call.args and isinstance(call.args[-1].comma, cst.Comma):
            # keep the magic trailing comma: the call stays one argument a line
            added[-1] = added[-1].with_changes(comma=cst.Comma())
        return call.with_changes(args=[*call.args, *added])

    def _reason(self, kind: Kind) -> cst.BaseExpression:
        constant, literal = _REASONS[kind]
        if local := self.imported.local_for(f"{SCORERS_MODULE}.{constant}"):
            return cst.Name(local)
        if any(
            self.imported.locals_of(f"{SCORERS_MODULE}.{name}")
            for name in REASON_CONSTANTS
        ):
            self.imports.add(SCORERS_MODULE, constant)
            return cst.Name(constant)
        return cst.SimpleString(f'"{literal}"')


def _lines(suite: cst.BaseSuite) -> Sequence[cst.CSTNode]:
    return suite.body if isinstance(suite, cst.IndentedBlock) else [suite]


def _first_return(lines: Sequence[cst.CSTNode]) -> cst.Return | None:
    """The block's ``return`` if only expression statements (a log call) precede it.

    An assignment or a nested block before it may recover an answer (code
    found in the sandbox) or fail in another way, so the path is not sure.
    """
    for line in lines:
        if not isinstance(line, cst.SimpleStatementLine | cst.SimpleStatementSuite):
            return None
        for small in line.body:
            if isinstance(small, cst.Return):
                return small
            if not isinstance(small, cst.Expr):
                return None
    return None


def _taggable(value: cst.BaseExpression | None) -> bool:
    """A ``Score(...)`` with no ``reason=`` and no ``**kwargs`` to hide one."""
    return (
        is_score_call(value)
        and not _has_keyword(value, "reason")
        and not any(arg.star == "**" for arg in value.args)
    )


def _always_exits(suite: cst.BaseSuite) -> bool:
    """Whether a block ends in ``return`` or ``raise``."""
    lines = _lines(suite)
    last = lines[-1] if lines else None
    simple = cst.SimpleStatementLine | cst.SimpleStatementSuite
    return isinstance(last, simple) and isinstance(
        last.body[-1], cst.Return | cst.Raise
    )


def _has_keyword(call: cst.Call, name: str) -> bool:
    return any(
        arg.keyword is not None and arg.keyword.value == name for arg in call.args
    )


def _keyword(name: str, value: cst.BaseExpression) -> cst.Arg:
    equal = cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))
    return cst.Arg(value, keyword=cst.Name(name), equal=equal)


def _kind(outcomes: set[Outcome]) -> Kind:
    if outcomes == {Outcome.NO_OUTPUT}:
        return "no_output"
    return "refusal" if outcomes <= _REFUSALS else "non_answer"


def _flip(side: Literal["body", "orelse"]) -> Literal["body", "orelse"]:
    return "orelse" if side == "body" else "body"


def _combine(
    test: cst.BooleanOperation, left: Branch | None, right: Branch | None
) -> Branch | None:
    """``and`` is a non-answer if one side is; ``or`` only if both are.

    The ``else`` of ``a and b`` runs when one side is false: a non-answer only
    if both sides are answered-checks. Dually for ``or``.
    """
    both = [b for b in (left, right) if b is not None]
    sure: Literal["body", "orelse"] = (
        "body" if isinstance(test.operator, cst.And) else "orelse"
    )
    if any(side == sure for side, _ in both):
        kinds = {kind for side, kind in both if side == sure}
        return sure, kinds.pop() if len(kinds) == 1 else "non_answer"
    if left is not None and right is not None and left[0] == right[0]:
        kinds = {left[1], right[1]}
        return left[0], kinds.pop() if len(kinds) == 1 else "non_answer"
    return None
