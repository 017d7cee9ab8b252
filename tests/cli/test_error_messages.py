"""The mistakes a newcomer makes first, each answered by one line that says what to do.

Each row is a command line as a user types it, run through the real command
line (`main`, in process) where the mistake is made (a folder that is not a
checkout, say): its last line on stderr, word for word, and its exit code.
"""

import shutil
from pathlib import Path

import pytest

from empty_migrate.cli.exit_codes import ExitCode
from empty_migrate.cli.main import main
from empty_migrate.target.corpus import DEFAULT_SPEC
from tests.audit.small import demo_tree
from tests.demo import fake_cached_release

USAGE = ExitCode.USAGE
README = Path(__file__).parents[2] / "README.md"
LOG = Path(__file__).parents[1] / "logs" / "data" / "0.3.285" / "xstest.eval"
PASS_A_LOG = "pass a .eval or .json log written by inspect eval"

ROWS = [
    (
        "--evals for --eval",
        ["--evals", "xstest", "--dry-run"],
        "empty-migrate: error: unrecognized arguments: --evals; did you mean '--eval'?",
    ),
    (
        "--dryrun for --dry-run",
        ["--dryrun", "--eval", "xstest"],
        "empty-migrate: error: unrecognized arguments: --dryrun; "
        "did you mean '--dry-run'?",
    ),
    (
        "a command misspelt",
        ["campain", "status"],
        "empty-migrate: error: argument command: invalid choice: 'campain' (choose "
        "from 'policy', 'outcomes', 'registry', 'audit', 'campaign', 'lint', 'cache'); "
        "did you mean 'campaign'?",
    ),
    (
        "an eval by its title's spelling",
        ["--eval", "XSTest", "--repo", "{demo}", "--dry-run"],
        "empty-migrate: unknown eval 'XSTest'; did you mean 'xstest'?",
    ),
    (
        "a --repo folder that is not there",
        ["--eval", "xstest", "--repo", "{tmp}/missing", "--dry-run"],
        "empty-migrate: --repo {tmp}/missing: no such folder; pass the folder of an "
        "inspect_evals checkout, or pypi:inspect-evals==VERSION",
    ),
    (
        "lint --repo folder that is not there",
        ["lint", "--repo", "{tmp}/missing"],
        "empty-migrate: --repo {tmp}/missing: no such folder; pass the root of an "
        "inspect_evals checkout",
    ),
    (
        "a README renamed .eval",
        ["outcomes", "{tmp}/README.eval"],
        "empty-migrate: {tmp}/README.eval is not an Inspect eval log: it holds text, "
        f"and a .eval log is a zip archive; {PASS_A_LOG}",
    ),
    (
        "audit --log of a README renamed .eval",
        ["audit", "--log", "{tmp}/README.eval"],
        "empty-migrate: {tmp}/README.eval is not an Inspect eval log: it holds text, "
        f"and a .eval log is a zip archive; {PASS_A_LOG}",
    ),
    (
        "a text file",
        ["outcomes", "{tmp}/README.txt"],
        "empty-migrate: {tmp}/README.txt is not an Inspect eval log: it holds text; "
        f"{PASS_A_LOG}",
    ),
    (
        "a .eval log saved under another name",
        ["outcomes", "{tmp}/log.txt"],
        "empty-migrate: {tmp}/log.txt is not an Inspect eval log: it holds a zip "
        "archive; if it is an Inspect log, name it *.eval",
    ),
    (
        "campaign status outside a git checkout",
        ["campaign", "status"],
        "empty-migrate: {tmp} is not a git repository: run it in the inspect_evals "
        "checkout where `empty-migrate --branch-per-eval` made its branches, or pass "
        "--repo with that checkout",
    ),
    (
        "a migration that would write into the cached release",
        ["--eval", "xstest"],
        "empty-migrate: will not write into the cached release at {cache}: make a "
        "checkout of your own with `git clone {cache} COPY` (or clone inspect_evals) "
        "and pass --repo COPY, or pass --dry-run to see the diff",
    ),
]


@pytest.fixture
def place(tmp_path, monkeypatch) -> dict[str, str]:
    """The placeholders' values: a folder outside any checkout, as the cwd."""
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(README, work / "README.eval")
    shutil.copy(README, work / "README.txt")
    shutil.copy(LOG, work / "log.txt")
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    cache = fake_cached_release(tmp_path / "cache", DEFAULT_SPEC.partition("==")[2])
    monkeypatch.chdir(work)
    return {
        "tmp": str(work),
        "demo": str(demo_tree(tmp_path / "demo")),
        "cache": str(cache),
    }


def _run(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exit:  # argparse's refusals end in SystemExit(2)
        return int(exit.code or 0)


@pytest.mark.parametrize(
    ("line", "said"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS]
)
def test_a_mistake_gets_one_line_that_says_what_to_do(line, said, place, capsys):
    code = _run([word.format(**place) for word in line])
    err = capsys.readouterr().err
    assert (code, err.splitlines()[-1]) == (USAGE, said.format(**place))
    assert "Traceback" not in err
