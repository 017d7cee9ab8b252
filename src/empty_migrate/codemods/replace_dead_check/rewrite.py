"""replace_dead_check: replace empty checks that never fire or miss cases.

``ModelOutput`` is a pydantic model, so it is always truthy, ``output.empty``
means "no choices" (not "no text"), ``ChatMessage.text`` is never ``None``, and
``not completion`` lets whitespace, reasoning-only and filtered outputs through
to the scorer. Each such check on the model under test's output is replaced by
the router's classification (``classify`` and ``Outcome`` from
``inspect_evals.utils.empty_response``), in registered scorer constructs and
``@solver`` functions. ``O`` is the output (see ``_empty_checks``), ``C`` its
raw completion:

* ``not O`` -> ``classify(O) is Outcome.NO_OUTPUT``; ``O`` as a truth value ->
  ``classify(O) is not Outcome.NO_OUTPUT``.
* ``O and <rest>`` where ``<rest>`` reads ``O`` only through ``O.completion``
  (which is ``""`` without choices), and ``O.completion if O else ""``: the
  always-true ``O`` is dropped, since the rest already says what was meant.
* In an ``if`` that returns a ``Score`` directly (the check decides a score):
  ``O.empty``, ``not C`` and ``C == ""`` -> ``classify(O) is not
  Outcome.ANSWERED``, and their negations -> ``classify(O) is
  Outcome.ANSWERED``. A name left unused by this is deleted with its
  assignment. Elsewhere ``O.empty`` (e.g. before ``raise``) means what it says
  and is left alone, as are checks that do not decide a score.
* ``<message>.text is not None`` -> ``<message>.text.strip()`` (visible text),
  and ``is None`` -> ``not <message>.text.strip()``, for names like messages.

Files: those where the registry scan found a dead or empty check inside a
registered scorer construct (``rewrite: false`` included: an inner scorer still
holds its checks) or a ``@solver``; the rewrite covers those functions.

Left alone: positive checks (``if C:``, ``C != ""``: their block is the
answer path, which the router now guards), stripped checks (``not
C.strip()``: no whitespace to miss), values
passed through other functions (extracted answers, code blocks), judge
outputs, ``.output``/``.empty``/``.text`` on other objects (DataFrames, exec
results, XML elements), and every ``state.output`` of a construct whose
registry ``output`` is not ``state.output``. Skips the eval if the file binds
``classify`` or ``Outcome`` to something other than the router's.
Unsafe: non-answers that slipped past a check now take its branch.
"""

import ast

import libcst as cst

from empty_migrate.analysis.syntax import UNKNOWN, Imports, imports_of, module_bindings
from empty_migrate.codemods.kit.base import Codemod, EvalTarget, Skip
from empty_migrate.codemods.kit.chunks import Chunks
from empty_migrate.codemods.kit.empty_checks import (
    ConstructCommand,
    construct_lines,
    constructs,
    returns_score,
    run_command,
)
from empty_migrate.codemods.kit.imports import NeededImports
from empty_migrate.codemods.kit.nodes import (
    find_all,
    is_attribute,
    is_empty_string,
    is_name,
)
from empty_migrate.codemods.kit.router_call import ROUTER_MODULE

Check = tuple[cst.BaseExpression, str, bool]
"""A classification check: the output, the ``Outcome`` member, and ``is not``."""


class ReplaceDeadCheck(Codemod):
    """Replace dead and whitespace-blind empty checks with ``classify``."""

    def files(self, target: EvalTarget) -> list[str]:  # noqa: D102
        if not self.applies(target):
            return []
        findings = [*target.scan.dead_checks, *target.scan.empty_checks]
        lines: dict[str, set[int]] = {}
        for finding in findings:
            lines.setdefault(finding.file, set()).add(finding.line)
        return [
            target.source(relative)
            for relative in sorted(lines)
            if _inside_constructs(target, relative, lines[relative])
        ]

    def transform(self, text: str, path: str, target: EvalTarget) -> str:  # noqa: D102
        relative = path.removeprefix("src/inspect_evals/")
        command = _Rewrite(NeededImports(), constructs(target, relative))
        return run_command(command, text, target)


def _inside_constructs(target: EvalTarget, relative: str, lines: set[int]) -> bool:
    tree = target.workspace.parse(target.read(target.source(relative)))
    ranges = construct_lines(tree, set(constructs(target, relative)))
    return any(line in span for line in lines for span in ranges)


class _Rewrite(ConstructCommand):
    def __init__(self, imports: NeededImports, constructs: dict[str, bool]) -> None:
        super().__init__(imports, constructs, solvers=True)
        self.unused: dict[int, set[str]] = {}  # id(frame) -> rewritten aliases
        self.imported: Imports  # read from the whole module by `prepare`
        self.taken: set[str] = set()

    def prepare(self, chunks: Chunks) -> None:
        super().prepare(chunks)
        self.imported = imports_of(chunks.tree)
        self.taken = module_bindings(chunks.tree)

    def leave_FunctionDef(
        self, original: cst.FunctionDef, updated: cst.FunctionDef
    ) -> cst.FunctionDef:
        unused = self.unused.pop(id(self.frames[-1]), set())
        if unused:
            updated = _drop_if_unused(updated, unused)
        return super().leave_FunctionDef(original, updated)

    def leave_If(self, original: cst.If, updated: cst.If) -> cst.If:
        if not self.active:
            return updated
        decides = returns_score(original.body)
        return updated.with_changes(test=self.rewrite(updated.test, decides))

    def leave_While(self, original: cst.While, updated: cst.While) -> cst.While:
        if not self.active:
            return updated
        return updated.with_changes(test=self.rewrite(updated.test, False))

    def leave_CompIf(self, original: cst.CompIf, updated: cst.CompIf) -> cst.CompIf:
        if not self.active:
            return updated
        return updated.with_changes(test=self.rewrite(updated.test, False))

    def leave_IfExp(
        self, original: cst.IfExp, updated: cst.IfExp
    ) -> cst.BaseExpression:
        if not self.active:
            return updated
        output = self.reader.output(updated.test)
        if (
            output is not None
            and is_empty_string(updated.orelse)
            and _reads_only_completion(updated.body, output)
        ):
            return _with_parens(updated, updated.body)
        return updated.with_changes(test=self.rewrite(updated.test, False))

    def rewrite(self, test: cst.BaseExpression, decides: bool) -> cst.BaseExpression:
        """The condition with every dead or whitespace-blind check replaced."""
        if isinstance(test, cst.BooleanOperation):
            return self._boolean(test, decides)
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            check = self._negated(test.expression, decides)
            if check is not None:
                return _with_parens(test, self._classify(*check))
            return test.with_changes(expression=self.rewrite(test.expression, decides))
        if (check := self._check(test, decides)) is not None:
            return _with_parens(test, self._classify(*check))
        return _with_parens(test, _visible_text_check(test))

    def _check(self, test: cst.BaseExpression, decides: bool) -> Check | None:
        if (output := self.reader.output(test)) is not None:
            return output, "NO_OUTPUT", True
        if not decides:
            return None
        if is_attribute(test, "empty"):
            output = self.reader.output(test.value)
            return (output, "ANSWERED", True) if output is not None else None
        compared = _compared_to_empty_string(test)
        if compared is not None and (output := self.reader.completion(compared)):
            self._note_alias(compared)
            return output, "ANSWERED", True
        return None

    def _negated(self, operand: cst.BaseExpression, decides: bool) -> Check | None:
        if (check := self._check(operand, decides)) is not None:
            return check[0], check[1], not check[2]
        if decides and (output := self.reader.completion(operand)) is not None:
            self._note_alias(operand)
            return output, "ANSWERED", True
        return None

    def _boolean(self, test: cst.BooleanOperation, decides: bool) -> cst.BaseExpression:
        operands, operators = _flatten(test)
        kept = list(range(len(operands)))
        if isinstance(test.operator, cst.And):
            kept = [i for i in kept if not self._dead_guard(operands, i)]
        result = self.rewrite(operands[kept[0]], decides)
        for i in kept[1:]:
            right = self.rewrite(operands[i], decides)
            result = cst.BooleanOperation(result, operators[i - 1], right)
        return _with_parens(test, result)

    def _dead_guard(self, operands: list[cst.BaseExpression], index: int) -> bool:
        """An always-true output whose ``and`` partners read only its completion."""
        output = self.reader.output(operands[index])
        if output is None:
            return False
        others = [op for i, op in enumerate(operands) if i != index]
        reads = [_reads(op, output) for op in others]
        return sum(r.completion for r in reads) > 0 and not any(r.other for r in reads)

    def _classify(
        self, output: cst.BaseExpression, member: str, negated: bool
    ) -> cst.Comparison:
        classify = cst.Name(self._router_name("classify"))
        outcome = cst.Attribute(
            cst.Name(self._router_name("Outcome")), cst.Name(member)
        )
        argument = cst.Arg(output.with_changes(lpar=(), rpar=()))
        operator = cst.IsNot() if negated else cst.Is()
        return cst.Comparison(
            cst.Call(classify, [argument]), [cst.ComparisonTarget(operator, outcome)]
        )

    def _router_name(self, name: str) -> str:
        if local := self.imported.local_for(f"{ROUTER_MODULE}.{name}"):
            return local
        if name in self.taken:
            raise Skip(f"`{name}` is bound to something else here; migrate by hand")
        self.imports.add(ROUTER_MODULE, name)
        return name

    def _note_alias(self, expr: cst.BaseExpression) -> None:
        """Remember a name whose read was rewritten, and the names it copies.

        They may now be unused (``answer = completion`` read only by the
        check leaves ``completion`` unused too).
        """
        if not isinstance(expr, cst.Name):
            return
        frame = self.reader.binding_frame(expr.value)
        noted = self.unused.setdefault(id(frame), set()) if frame else set()
        if frame is None or expr.value in noted:
            return
        noted.add(expr.value)
        for value in frame.bindings[expr.value]:
            for name in _names_in(value):
                self._note_alias(cst.Name(name))


def _flatten(
    test: cst.BooleanOperation,
) -> tuple[list[cst.BaseExpression], list[cst.BaseBooleanOp]]:
    """The operands of a chain of one boolean operator, and the operators."""
    operands, operators = [], []
    for side in (test.left, test.right):
        if (
            isinstance(side, cst.BooleanOperation)
            and not side.lpar
            and type(side.operator) is type(test.operator)
        ):
            inner, between = _flatten(side)
            operands += inner
            operators += between
        else:
            operands.append(side)
        if side is test.left:
            operators.append(test.operator)
    return operands, operators


class _OutputReads(cst.CSTVisitor):
    """Counts the reads of one output through ``.completion`` and otherwise."""

    def __init__(self, output: cst.BaseExpression) -> None:
        self.output = output
        self.completion = 0
        self.other = 0

    def on_visit(self, node: cst.CSTNode) -> bool:
        if is_attribute(node, "completion") and _same(node.value, self.output):
            self.completion += 1
            return False
        if _same(node, self.output):
            self.other += 1
            return False
        return True


def _same(node: cst.CSTNode, output: cst.BaseExpression) -> bool:
    return isinstance(node, cst.BaseExpression) and node.deep_equals(output)


def _reads(expr: cst.BaseExpression, output: cst.BaseExpression) -> _OutputReads:
    reads = _OutputReads(output)
    expr.visit(reads)
    return reads


def _reads_only_completion(
    expr: cst.BaseExpression, output: cst.BaseExpression
) -> bool:
    reads = _reads(expr, output)
    return reads.completion > 0 and reads.other == 0


def _compared_to_empty_string(test: cst.BaseExpression) -> cst.BaseExpression | None:
    """``X`` of ``X == ""`` or ``"" == X``."""
    if not (
        isinstance(test, cst.Comparison)
        and len(test.comparisons) == 1
        and isinstance(test.comparisons[0].operator, cst.Equal)
    ):
        return None
    left, right = test.left, test.comparisons[0].comparator
    if is_empty_string(right):
        return left
    return right if is_empty_string(left) else None


def _visible_text_check(test: cst.BaseExpression) -> cst.BaseExpression:
    """``<message>.text is not None`` -> ``<message>.text.strip()`` (never None)."""
    if not (
        isinstance(test, cst.Comparison)
        and is_attribute(test.left, "text")
        and _message_like(test.left.value)
        and len(test.comparisons) == 1
        and isinstance(test.comparisons[0].operator, cst.Is | cst.IsNot)
        and is_name(test.comparisons[0].comparator, "None")
    ):
        return test
    stripped = cst.Call(cst.Attribute(test.left, cst.Name("strip")))
    if isinstance(test.comparisons[0].operator, cst.IsNot):
        return stripped
    return cst.UnaryOperation(cst.Not(), stripped)


def _message_like(owner: cst.BaseExpression) -> bool:
    name = owner.attr if isinstance(owner, cst.Attribute) else owner
    value = name.value.lower() if isinstance(name, cst.Name) else ""
    return "message" in value or value.endswith("msg")


def _with_parens(
    old: cst.BaseExpression, new: cst.BaseExpression
) -> cst.BaseExpression:
    if new is old or not old.lpar:
        return new
    return new.with_changes(lpar=old.lpar, rpar=old.rpar)


def _assigns_only(line: cst.SimpleStatementLine, name: str) -> bool:
    """Whether the line is just ``name = <value>``."""
    if len(line.body) != 1 or not isinstance(line.body[0], cst.Assign):
        return False
    targets = line.body[0].targets
    return len(targets) == 1 and is_name(targets[0].target, name)


class _DropAssignments(cst.CSTTransformer):
    def __init__(self, name: str) -> None:
        self.name = name

    def leave_SimpleStatementLine(
        self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.RemovalSentinel:
        if _assigns_only(updated, self.name):
            return cst.RemovalSentinel.REMOVE
        return updated


def _names_in(value: ast.expr | None) -> list[str]:
    """The variables a bound value reads (none if it is unknown)."""
    nodes = ast.walk(value) if value is not UNKNOWN else []
    return [node.id for node in nodes if isinstance(node, ast.Name)]


def _drop_if_unused(function: cst.FunctionDef, names: set[str]) -> cst.FunctionDef:
    """Delete ``name = ...`` for each name the rewrite left unread, to a fixpoint."""
    dropped = True
    while dropped:
        dropped = False
        for name in sorted(names):
            assignments = [
                target
                for target in find_all(function.body, cst.AssignTarget)
                if is_name(target.target, name)
            ]
            if assignments and _Loads.count(function.body, name) == len(assignments):
                dropping = function.visit(_DropAssignments(name))
                function = cst.ensure_type(dropping, cst.FunctionDef)
                dropped = True
    return function


class _Loads(cst.CSTVisitor):
    """The variables an expression names (not attributes or keywords spelled so)."""

    def __init__(self) -> None:
        self.found: list[str] = []

    @classmethod
    def count(cls, node: cst.CSTNode, name: str) -> int:
        loads = cls()
        node.visit(loads)
        return loads.found.count(name)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self.found.append(node.value)
