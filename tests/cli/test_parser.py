"""The parser: every command listed from the start, each declared when it is named.

Building the parser and parsing a command loads no command's module: each is
imported when its command runs (`empty_migrate.cli.main`).
"""

import json
import subprocess
import sys

import pytest

from empty_migrate.cli.main import main
from empty_migrate.cli.parser import COMMANDS, build_parser

PROBE = """\
import json, sys
from empty_migrate.cli.parser import build_parser

build_parser()[0].parse_args(sys.argv[1:])
print(json.dumps(sorted(m for m in sys.modules if m.startswith("empty_migrate"))))
"""


@pytest.mark.parametrize(
    "args", [["lint", "x.py"], ["--eval", "xstest", "--dry-run"], ["registry", "list"]]
)
def test_parsing_a_command_loads_none_of_the_commands(args):
    run = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True
    )
    assert json.loads(run.stdout) == [
        "empty_migrate",
        "empty_migrate.cli",
        "empty_migrate.cli.exit_codes",
        "empty_migrate.cli.parser",
        "empty_migrate.errors",
        "empty_migrate.registry",
    ]


def test_help_lists_every_command_with_its_help(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = "".join(capsys.readouterr().out.split())  # however argparse wraps it
    assert "{policy,outcomes,registry,audit,campaign,lint,cache}..." in text
    for name, (help_text, _) in COMMANDS.items():
        assert name + "".join(help_text.split()) in text


def test_a_command_is_declared_once_however_often_it_is_parsed():
    parser, _ = build_parser()
    for _ in range(2):
        assert parser.parse_args(["lint", "--fix", "a.py"]).fix
    assert parser.parse_args(["--only", "wrap_router", "--eval", "x"]).only == [
        "wrap_router"
    ]


def test_an_unknown_codemod_names_the_known_ones(capsys):
    with pytest.raises(SystemExit):
        main(["--only", "wrap", "--eval", "x"])
    assert "invalid choice: 'wrap' (choose from 'install_router', " in (
        capsys.readouterr().err
    )
