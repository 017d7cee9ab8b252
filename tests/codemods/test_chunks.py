"""`Chunks` cuts a module where LibCST puts its statement boundaries, and edits it.

A chunk is a statement with the lines LibCST gives it: the comments and blank
lines above it, and after an indented block the lines indented like the block.
"""

import textwrap

import libcst as cst
import pytest

from empty_migrate.codemods.kit.base import Skip
from empty_migrate.codemods.kit.chunks import Chunks
from empty_migrate.codemods.kit.imports import (
    add_imports,
    add_module_import,
    remove_unused_imports,
)

CASES = {
    "decorators_and_comments": (
        """\
        '''Docstring.'''
        # a comment above the import
        import os  # trailing


        @decorator
        # between decorators
        @other(
            1,
        )
        def scorer():
            return 1
        """,
        [
            "'''Docstring.'''\n",
            "# a comment above the import\nimport os  # trailing\n",
            "\n\n@decorator\n# between decorators\n@other(\n    1,\n)\n"
            "def scorer():\n    return 1\n",
        ],
    ),
    "block_footer_comments": (
        """\
        def f():
            if x:
                return 1
                # deep

            # footer of f
            \n\
          # less indented: belongs to g
        # top level

        def g():
            pass
        """,
        [
            "def f():\n    if x:\n        return 1\n        # deep\n\n"
            "    # footer of f\n",
            "\n  # less indented: belongs to g\n# top level\n\ndef g():\n    pass\n",
        ],
    ),
    "shared_line_and_elif": (
        """\
        a = 1; b = 2
        if a:
            pass
        elif b:
            pass
            # elif footer
        # next
        try:
            pass
        except ValueError:
            pass
            # handler footer
        c = 3
        """,
        [
            "a = 1; b = 2\n",
            "if a:\n    pass\nelif b:\n    pass\n    # elif footer\n",
            "# next\ntry:\n    pass\nexcept ValueError:\n    pass\n"
            "    # handler footer\n",
            "c = 3\n",
        ],
    ),
    "no_trailing_newline": (
        "x = 1\ndef f():\n    return x",
        ["x = 1\n", "def f():\n    return x"],
    ),
    "only_comments": ("# nothing here\n", ["# nothing here\n"]),
    "crlf": (
        "import os\r\n\r\ndef f():\r\n    return os\r\n",
        ["import os\r\n", "\r\ndef f():\r\n    return os\r\n"],
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_chunks_are_statements_with_the_lines_libcst_gives_them(name):
    source, expected = CASES[name]
    chunks = Chunks(textwrap.dedent(source))
    assert chunks.texts == expected
    for index, text in enumerate(chunks.texts):
        assert chunks.module(index).code == text


IMPORTS = [("a", "x"), ("c", "d"), ("pkg.mod", "y"), ("pkg.mod", "z")]
NEW_LINES = "from a import x\nfrom c import d\nfrom pkg.mod import y, z\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            '"""Doc."""\n\nimport os\n\nX = 1\n',
            f'"""Doc."""\n\nimport os\n{NEW_LINES}\nX = 1\n',
        ),
        ('"""Doc."""\n\nX = 1\n', f'"""Doc."""\n{NEW_LINES}\nX = 1\n'),
        (
            "#!/usr/bin/env python\n# header\n\nX = 1\n",
            f"#!/usr/bin/env python\n# header\n\n{NEW_LINES}X = 1\n",
        ),
        (
            "from a import b\nfrom c import d as e\n\n\ndef f():\n    pass\n",
            "from a import b, x\nfrom c import d as e, d\nfrom pkg.mod import y, z\n"
            "\n\ndef f():\n    pass\n",
        ),
        (
            "import os\ndef f():\n    pass\n    # footer\nimport sys\nY = 2\n",
            "import os\ndef f():\n    pass\n    # footer\nimport sys\n"
            f"{NEW_LINES}Y = 2\n",
        ),
        ("X = 1\n", f"{NEW_LINES}X = 1\n"),
    ],
)
def test_new_imports_join_their_module_or_follow_the_last_import(text, expected):
    chunks = Chunks(text)
    add_imports(chunks, IMPORTS)
    assert chunks.text == expected


def test_untouched_chunks_keep_their_text_byte_for_byte():
    text = "import os\n\n\ndef f( a ):\n    return  a\n\n\ndef g():\n    return 1\n"
    chunks = Chunks(text)
    (index,) = chunks.find(lambda s: getattr(s, "name", "") == "g", mentions=["g"])
    module = chunks.module(index)
    chunks.replace(index, module.with_changes(body=[cst.parse_statement("X = 2\n")]))
    assert chunks.text.startswith("import os\n\n\ndef f( a ):\n    return  a\n")
    assert chunks.text.endswith("X = 2\n")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('"""Doc."""', '"""Doc."""\nfrom a import x'),
        ("", "from a import x"),
        ("# only a comment\n", "# only a comment\nfrom a import x\n"),
        ("import os\n# footer\n", "import os\nfrom a import x\n# footer\n"),
        (
            "from a import (\n    b,  # why\n    c,\n)\n",
            "from a import (\n    b, c, x)\n",
        ),
        ("from a import (\n    b,\n    c\n)\n", "from a import (\n    b, c, x\n)\n"),
        ("from a import b as x\n", "from a import b as x, x\n"),
    ],
)
def test_imports_join_a_line_or_start_one_where_the_module_ends(text, expected):
    chunks = Chunks(text)
    add_imports(chunks, [("a", "x")])
    assert chunks.text == expected


def test_a_module_import_follows_the_last_import():
    chunks = Chunks('"""Doc."""\nfrom a import b\n\nX = b\n')
    add_module_import(chunks, "warnings")
    add_module_import(chunks, "warnings")
    assert chunks.text == '"""Doc."""\nfrom a import b\nimport warnings\n\nX = b\n'


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("from m import a, b\nb\n", "from m import b\nb\n"),
        ("from m import b, a\nb\n", "from m import b\nb\n"),
        ("import a.x, b\nb\n", "import b\nb\n"),
        ("from m import (\n    a,\n    b,\n)\nb\n", "from m import (\n    b)\nb\n"),
        (
            "from m import (\n    b,  # keep\n    a,  # gone\n    c\n)\nb, c\n",
            "from m import (\n    b,  # keep\n    c\n)\nb, c\n",
        ),
        ("from m import a as z, b\nb\n", "from m import a as z, b\nb\n"),
        ("from m import a\nX = 1\n", "X = 1\n"),
        ('"""Doc."""\n\n# gone too\nfrom m import a\nX = 1\n', '"""Doc."""\nX = 1\n'),
        ("#!/usr/bin/env python\nfrom m import a  # x\n", "#!/usr/bin/env python\n"),
        ("import a; x = 1\n", "x = 1\n"),
        ("x = 1; import a\n", "x = 1; \n"),
        ("from m import *\nfrom m import a\n", "from m import *\n"),
        ("from m import a\na = 2\n", "from m import a\na = 2\n"),
        ('from m import a\n__all__ = ["a"]\n', 'from m import a\n__all__ = ["a"]\n'),
        ("from m import a\nX: 'list[a]'\n", "from m import a\nX: 'list[a]'\n"),
    ],
)
def test_unused_imports_go_with_what_only_they_hold(text, expected):
    chunks = Chunks(text)
    remove_unused_imports(chunks, {"a"})
    assert chunks.text == expected


def test_an_edited_chunk_is_read_again_for_the_next_edit():
    chunks = Chunks("from m import a, b\n\nX = b\n")
    remove_unused_imports(chunks, {"a"})
    add_imports(chunks, [("m", "c")])
    assert chunks.text == "from m import b, c\n\nX = b\n"
    assert [len(group) for group in chunks.statements] == [1, 1]


def test_lone_carriage_returns_leave_imports_to_a_person():
    chunks = Chunks("import os\rX = os\r")
    with pytest.raises(Skip, match="carriage-return"):
        add_imports(chunks, [("m", "a")])
