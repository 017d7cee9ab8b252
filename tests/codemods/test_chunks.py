"""`Chunks` cuts a module where LibCST puts its statement boundaries."""

import textwrap

import libcst as cst
import pytest

from empty_migrate.codemods._chunks import Chunks
from empty_migrate.codemods._imports import add_imports

CASES = {
    "decorators_and_comments": """\
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
    "block_footer_comments": """\
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
    "shared_line_and_elif": """\
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
    "no_trailing_newline": "x = 1\ndef f():\n    return x",
    "only_comments": "# nothing here\n",
    "crlf": "import os\r\n\r\ndef f():\r\n    return os\r\n",
}


def _libcst_chunks(text: str) -> list[str]:
    module = cst.parse_module(text)
    if not module.body:
        return [text]
    chunks = [module.code_for_node(statement) for statement in module.body]
    chunks[0] = (
        "".join(module.code_for_node(line) for line in module.header) + chunks[0]
    )
    chunks[-1] += "".join(module.code_for_node(line) for line in module.footer)
    if not module.has_trailing_newline:
        chunks[-1] = chunks[-1].removesuffix(module.default_newline)
    return chunks


@pytest.mark.parametrize("name", CASES)
def test_chunks_are_libcsts_statements(name):
    text = textwrap.dedent(CASES[name])
    chunks = Chunks(text)
    assert chunks.text == text
    assert chunks.texts == _libcst_chunks(text)
    for index in range(len(chunks.texts)):
        assert chunks.module(index).code == chunks.texts[index]


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
