"""Target files as they are: UTF-8 only, worked on with LF line ends and no BOM."""

import pickle

import pytest

from empty_migrate.target.text_files import BOM, NotUtf8, decoded


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


def test_crlf_and_a_bom_are_worked_on_as_lf_and_no_bom():
    own = BOM + "a = 1\r\nb = 2\rc = 3\n"
    assert decoded(own.encode(), "x.py") == ("a = 1\nb = 2\nc = 3\n", own)
    assert decoded(b"a = 1\n", "x.py") == ("a = 1\n", None)
