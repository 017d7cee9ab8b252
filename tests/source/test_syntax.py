"""The syntax rules, each on the shapes it must tell apart."""

import ast
import textwrap

import pytest

from empty_migrate.analysis.syntax import (
    UNKNOWN,
    Imports,
    decorated_kind,
    decorator_kinds,
    definition_names,
    import_bindings,
    is_docstring,
    is_solver,
    is_state_output,
    module_bindings,
    qualified_definitions,
    scope_bindings,
)


def parse(source: str) -> ast.Module:
    return ast.parse(textwrap.dedent(source))


def function_bindings(source: str) -> dict[str, list[str | None]]:
    """The first function's bindings, each value as its source (None: unknown)."""
    function = parse(source).body[0]
    return {
        name: [None if v is UNKNOWN else ast.unparse(v) for v in values]
        for name, values in scope_bindings(function.body, function.args).items()
    }


def test_plain_assignments_say_what_a_name_holds_in_source_order():
    assert function_bindings(
        """
        def score(state, target):
            answer = state.output.completion
            answer: str = answer.strip()
            return answer
        """
    ) == {
        "state": [None],
        "target": [None],
        "answer": ["state.output.completion", "answer.strip()"],
    }


@pytest.mark.parametrize(
    ("statement", "names"),
    [
        ("a = b = value", ["a", "b"]),
        ("a, (b, c) = value", ["a", "b", "c"]),
        ("a += 1", ["a"]),
        ("a: int", ["a"]),
        ("a[i] = value", ["a", "i"]),
        ("obj.attr = value", ["obj"]),
        ("for a, b in pairs: pass", ["a", "b"]),
        ("with open(p) as (a, b): pass", ["a", "b"]),
        ("try: pass\nexcept E as a: pass", ["a"]),
        ("if (a := value): pass", ["a"]),
        ("import a.b, c as d", ["a", "d"]),
        ("from m import a, b as c", ["a", "c"]),
        ("def a(): pass", ["a"]),
        ("class a: pass", ["a"]),
        ("match x:\n case [a, *b]: pass\n case {'k': 1, **c}: pass", ["a", "b", "c"]),
    ],
)
def test_every_other_binding_leaves_the_value_unknown(statement, names):
    source = "def f():\n" + textwrap.indent(statement, "    ") + "\n"
    assert function_bindings(source) == {name: [None] for name in names}


def test_nested_scopes_bind_only_their_own_names():
    assert function_bindings(
        """
        def outer(*args, key=None, **kwargs):
            def inner(x):
                hidden = x
            class Holder:
                field = 1
            squares = [n * n for n in args if (seen := n)]
            call = lambda y: (z := y)
        """
    ) == {
        "args": [None],
        "key": [None],
        "kwargs": [None],
        "inner": [None],
        "Holder": [None],
        "squares": ["[n * n for n in args if (seen := n)]"],
        "seen": [None],
        "call": ["lambda y: (z := y)"],
    }


def test_module_bindings_are_top_level_names_and_every_import():
    tree = parse(
        """
        import os.path
        from m import *
        if TYPE_CHECKING:
            Alias = int
        def f():
            from inspect_ai.scorer import Score as S
            local = 1
        """
    )
    assert module_bindings(tree) == {"os", "Alias", "f", "S"}


@pytest.mark.parametrize(
    ("statement", "names"),
    [
        ("def judge(): pass", ["judge"]),
        ("class Judge: pass", ["Judge"]),
        ("MODELS['judge'] = get_model()", ["MODELS"]),
        ("A = B = 1", ["A", "B"]),
        ("import judge", []),
        ("for judge in judges: pass", []),
        ("register(judge)", []),
    ],
)
def test_a_definition_is_a_function_class_or_assignment(statement, names):
    assert definition_names(ast.parse(statement).body[0]) == names


def test_definitions_are_known_by_their_qualified_path():
    tree = parse(
        """
        class Judge:
            def score(self):
                def inner(): pass
        if flag:
            def helper(): pass
        else:
            def helper(): pass
        """
    )
    paths = [path for path, _ in qualified_definitions(tree.body)]
    assert paths == [
        ("Judge",),
        ("Judge", "score"),
        ("Judge", "score", "inner"),
        ("helper",),
        ("helper",),
    ]


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        ('"""Doc."""', True),
        ("'one' 'two'", True),
        ('f"{x}"', False),
        ("b'bytes'", False),
        ("1", False),
        ("x = 'a'", False),
    ],
)
def test_a_docstring_is_a_lone_string_constant(statement, expected):
    assert is_docstring(ast.parse(statement).body[0]) is expected


@pytest.mark.parametrize(
    ("statement", "bound"),
    [
        ("import os.path", [("os", "os")]),
        ("import os.path as p", [("p", "os.path")]),
        ("from m import a", [("a", "m.a")]),
        ("from m import a as b, a", [("b", "m.a"), ("a", "m.a")]),
        ("from . import x", [("x", "inspect_evals.demo.x")]),
        ("from .x import y as z", [("z", "inspect_evals.demo.x.y")]),
        ("from ..utils import e", [("e", "inspect_evals.utils.e")]),
        ("from m import *", []),
        ("x = 1", []),
    ],
)
def test_an_import_binds_each_local_name_to_a_qualified_one(statement, bound):
    statement = ast.parse(statement).body[0]
    found = import_bindings(statement, "inspect_evals.demo")
    assert [(b.local, b.qualified) for b in found] == bound


def test_a_relative_import_keeps_its_dots_when_the_package_is_unknown():
    (binding,) = import_bindings(ast.parse("from .x import y").body[0])
    assert binding.qualified == ".x.y"


POLICY = "inspect_evals.utils.empty_response"
ROUTER = f"{POLICY}.route_empty_responses"


def test_every_alias_of_a_name_is_bound_and_the_plain_top_level_one_is_written():
    imports = Imports(
        parse(
            f"""
            from {POLICY} import route_empty_responses as r
            from {POLICY} import route_empty_responses

            def f():
                from {POLICY} import route_empty_responses as q
            """
        )
    )
    assert imports.locals_of(ROUTER) == ["r", "route_empty_responses", "q"]
    assert imports.local_for(ROUTER) == "route_empty_responses"
    assert imports.local_for(f"{POLICY}.classify") is None


def test_a_function_level_alias_is_written_only_without_a_top_level_one():
    imports = Imports(
        parse(
            f"""
            def f():
                from {POLICY} import route_empty_responses as q
            from {POLICY} import route_empty_responses as r
            """
        )
    )
    assert imports.local_for(ROUTER) == "r"


@pytest.mark.parametrize(
    ("imported", "call", "calls"),
    [
        (f"from {POLICY} import route_empty_responses as r", "r(s)", True),
        (f"import {POLICY} as er", "er.route_empty_responses(s)", True),
        (f"import {POLICY}", f"{ROUTER}(s)", True),
        ("from inspect_evals.utils import empty_response as e", "e.route_empty_responses(s)", True),  # noqa: E501
        ("from ..utils.empty_response import route_empty_responses", "route_empty_responses(s)", True),  # noqa: E501
        ("from other import route_empty_responses", "route_empty_responses(s)", False),
        (f"import {POLICY} as er", "er.classify(s)", False),
        (f"import {POLICY} as er", "route_empty_responses(s)", False),
        (f"from {POLICY} import route_empty_responses as r", "r.x(s)", False),
        (f"from {POLICY} import route_empty_responses as r", "r()(s)", False),
    ],
)  # fmt: skip
def test_a_call_is_of_a_function_by_any_name_or_module_path_bound_to_it(
    imported, call, calls
):
    tree = ast.parse(f"{imported}\n{call}\n")
    node = tree.body[-1].value
    assert Imports(tree, "inspect_evals.demo").calls(node, ROUTER) is calls


@pytest.mark.parametrize(
    ("decorators", "kinds", "first"),
    [
        ("@solver", {"solver"}, "solver"),
        ("@inspect_ai.solver.solver()", {"solver"}, "solver"),
        ("@scorer(metrics=[accuracy()])", {"scorer"}, "scorer"),
        ("@task\n@scorer(metrics=[])", {"task", "scorer"}, "scorer"),
        ("@functools.cache", set(), None),
    ],
)
def test_a_decorators_last_name_makes_the_kind(decorators, kinds, first):
    function = ast.parse(f"{decorators}\ndef f(): pass").body[0]
    assert decorator_kinds(function.decorator_list) == kinds
    assert decorated_kind(function.decorator_list) == first
    assert is_solver(function) is ("solver" in kinds)


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("state.output", True),
        ("self.task_state.output", True),
        ("s.output", True),
        ("state.output.completion", False),
        ("result.output", False),
        ("get_state().output", False),
    ],
)
def test_the_models_output_is_output_on_a_state_like_name(expression, expected):
    assert is_state_output(ast.parse(expression, mode="eval").body) is expected
