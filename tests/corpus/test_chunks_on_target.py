"""On every Python file of the real corpus, `Chunks` cuts where LibCST does.

LibCST is the specification here, not a twin: a chunk is parsed and printed
by LibCST, and must hold exactly the lines LibCST gives its statements, so an
edited or dropped chunk takes its own comments and no one else's.
"""

import libcst as cst
import pytest

from empty_migrate.codemods.kit.chunks import Chunks

pytestmark = pytest.mark.corpus


def _libcst_chunks(text: str) -> list[str]:
    """Each top-level statement as LibCST prints it, the header and footer added."""
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


def test_every_corpus_file_chunks_as_libcst_puts_its_statements(inspect_evals_tree):
    checked, differing = 0, []
    for path in sorted((inspect_evals_tree / "src").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        try:
            chunks = Chunks(text)
        except SyntaxError:
            continue  # not Python 3.11 (challenge files): no codemod reads them
        checked += 1
        if chunks.text != text or chunks.texts != _libcst_chunks(text):
            differing.append(path.relative_to(inspect_evals_tree).as_posix())
    assert checked > 1000
    assert differing == []
