"""Target files as they are: UTF-8 only, line ends and a BOM put back on output."""

import pickle

import pytest

from empty_migrate.target.text_files import (
    BOM,
    NotUtf8,
    decoded,
    lines,
    restored,
)

ORIGINAL = "a = 1\nb = 2\nc = 3\nd = 4\n"
EDITED = "a = 1\nb = 20\nc = 3\nnew = 0\nd = 4\n"
"""A rewrite of `ORIGINAL`: line 2 changed, a line inserted before the last."""


def test_a_plain_file_is_worked_on_as_it_is():
    assert decoded(ORIGINAL.encode(), "x.py") == (ORIGINAL, None)
    assert restored(None, EDITED) == EDITED


def test_crlf_is_worked_on_as_lf_and_put_back_on_every_line():
    crlf = ORIGINAL.replace("\n", "\r\n")
    text, found = decoded(crlf.encode(), "x.py")
    assert (text, found) == (ORIGINAL, crlf)
    assert restored(found, text) == crlf
    assert restored(found, EDITED) == EDITED.replace("\n", "\r\n")


def test_mixed_line_ends_keep_their_bytes_and_new_lines_take_the_most_common():
    mixed = "a = 1\r\nb = 2\nc = 3\r\nd = 4\r\n"
    text, found = decoded(mixed.encode(), "x.py")
    assert text == ORIGINAL
    assert restored(found, EDITED) == "a = 1\r\nb = 20\r\nc = 3\r\nnew = 0\r\nd = 4\r\n"
    mostly_lf = "a = 1\r\nb = 2\nc = 3\nd = 4\n"
    assert restored(decoded(mostly_lf.encode(), "x.py")[1], EDITED) == (
        "a = 1\r\nb = 20\nc = 3\nnew = 0\nd = 4\n"
    )


def test_old_mac_line_ends_are_line_ends_too():
    text, found = decoded(b"a = 1\rb = 2\r", "x.py")
    assert text == "a = 1\nb = 2\n"
    assert restored(found, "a = 1\nb = 3\n") == "a = 1\rb = 3\r"


def test_a_bom_is_dropped_for_the_work_and_kept_on_output():
    text, found = decoded(BOM.encode() + ORIGINAL.encode(), "x.py")
    assert text == ORIGINAL
    assert restored(found, EDITED) == BOM + EDITED
    both = BOM + ORIGINAL.replace("\n", "\r\n")
    assert restored(decoded(both.encode(), "x.py")[1], EDITED) == (
        BOM + EDITED.replace("\n", "\r\n")
    )


def test_an_unterminated_last_line_stays_so_unless_the_rewrite_ends_it():
    found = "a = 1\r\nb = 2"
    assert restored(found, "a = 1\nb = 2") == found
    assert restored(found, "a = 1\nb = 2\nc = 3\n") == "a = 1\r\nb = 2\r\nc = 3\r\n"


def test_a_rewrite_written_with_crlf_is_not_doubled():
    found = "a = 1\r\nb = 2\r\n"
    assert restored(found, "a = 1\r\nb = 3\r\n") == "a = 1\r\nb = 3\r\n"


def test_lines_end_at_lf_only_as_git_counts_them():
    assert lines("a\r\nb\x0cc\u2028d\re\nf") == ["a\r\n", "b\x0cc\u2028d\re\n", "f"]


def test_latin_1_names_the_file_the_byte_and_what_to_do():
    data = "x = 1\n# café\n".encode("latin-1")
    with pytest.raises(NotUtf8) as error:
        decoded(data, "src/inspect_evals/x/scorer.py")
    assert str(error.value) == (
        "src/inspect_evals/x/scorer.py is not UTF-8 (byte 0xe9 at offset 11, "
        "line 2): convert it to UTF-8 to migrate this eval"
    )
    assert error.value.line == 2


def test_a_coding_line_is_named_but_not_followed():
    data = "# -*- coding: latin-1 -*-\nx = 'é'\n".encode("latin-1")
    with pytest.raises(NotUtf8, match=r"line 2; it declares latin-1\)"):
        decoded(data, "x.py")


def test_the_error_survives_a_trip_between_processes():
    with pytest.raises(NotUtf8) as error:
        decoded(b"\xff", "x.py")
    copy = pickle.loads(pickle.dumps(error.value))
    assert (str(copy), copy.line) == (str(error.value), 1)
