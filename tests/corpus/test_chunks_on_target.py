"""On every Python file of the real corpus, `Chunks` cuts where LibCST does."""

import pytest

from empty_migrate.codemods._chunks import Chunks

from ..codemods.test_chunks import _libcst_chunks

pytestmark = pytest.mark.corpus


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
