"""Safe on any checkout: the README's "Safety" promises, each tried for real.

Real files, real symbolic links, real processes stopped by real signals at
the points the test hook of `empty_migrate.target.files` pauses them. The
tests that start processes are slow (``pytest -m slow``).

Here: writes through linked folders and files, destinations that cannot be
written, the command line's exclusive options, stop signals while computing
and while writing, what a SIGKILLed write leaves, workers outliving a killed
run. Beside the code each concerns:

- nothing from the target run or used as a path: ``tests/target/test_ruff.py``
  (a hostile pre-commit ``rev``), ``test_corpus.py`` (``--repo pypi:`` specs),
  ``test_cache.py`` (cache paths), ``test_kept.py`` (damaged kept entries);
- branch mode: ``tests/delivery/test_git_safety.py`` (the private index, links
  in the base commit, ``--pr-dir``, a detached HEAD, campaign records) and
  ``test_concurrent_runs.py`` (two runs at once, SIGKILL after a ref: the
  index byte-identical, ``git status`` empty, ``git fsck`` clean);
  ``test_branch_per_eval.py`` (SIGINT, SIGTERM, SIGHUP mid-campaign);
- the lock: ``tests/target/test_lock.py``, ``tests/cli/test_one_writer.py``;
- files as they are: ``tests/pipeline/test_files_as_they_are.py`` (not UTF-8,
  CRLF, mixed line ends, a BOM), ``tests/delivery/test_branch_line_ends.py``,
  ``tests/corpus/test_line_ends_on_target.py`` (a CRLF scorer of 0.26.0);
- registry and YAML input: ``tests/registry/test_registry_input.py``,
  ``tests/cli/test_registry_input.py``, ``tests/target/test_yaml_files.py``;
- the write journal and rollback, unit by unit: ``tests/target/test_files.py``;
- round 2: a release never built, a relative cache setting
  (``tests/target/test_release_download.py``); paths the target names, a
  ``.git`` file, a linked PR template, entries outside (``test_safety_paths.py``);
  hostile logs (``tests/logs/test_safety_logs.py``); a malformed pre-commit
  config, files nested too deep, PR templates without H1/H2, lint on a file
  that does not parse (``test_safety_inputs.py``); saved audits and
  ``--output`` (``tests/cli/test_audit_inputs.py``); every command on bad
  input, no traceback (``tests/cli/test_no_traceback.py``); branch mode's git:
  line ends, a tag named like the branch, missing objects, ref conflicts
  (``tests/delivery/test_safety_git.py``,
  ``tests/corpus/test_safety_git_on_target.py``).
"""

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from empty_migrate.cli.main import main
from empty_migrate.target.files import PAUSE_AT, PAUSE_FILE, STAGING_PREFIX
from tests.demo import choice_entry, choice_task

EVALS = ["alpha", "beta", "delta", "gamma"]  # --all runs them in this order
ROUTER = "src/inspect_evals/utils/empty_response.py"


@pytest.fixture
def repo(demo):
    """Four evals, each scored by choice() in a task of its own."""
    for name in EVALS:
        demo.add_eval(name, {f"{name}.py": choice_task(name)}, choice_entry(name))
    return demo.repo


@pytest.fixture
def registry(demo, repo):
    return demo.registry


@pytest.fixture
def outside(tmp_path) -> Path:
    """A folder beside the repository, which nothing may change."""
    folder = tmp_path / "outside"
    folder.mkdir()
    return folder


def migrate(repo: Path, registry: Path, *args: str) -> int:
    return main(["--repo", str(repo), "--registry", str(registry), "-v", *args])


def snapshot(root: Path) -> dict[str, str]:
    """Every entry under `root`: a file's hash, a link's target, or "dir"."""
    entries = {}
    for path in sorted(root.rglob("*")):
        if path.is_symlink():
            entries[str(path.relative_to(root))] = f"-> {os.readlink(path)}"
        elif path.is_file():
            entries[str(path.relative_to(root))] = hashlib.sha256(
                path.read_bytes()
            ).hexdigest()
        else:
            entries[str(path.relative_to(root))] = "dir"
    return entries


def migrated(repo: Path, name: str) -> bool:
    module = repo / f"src/inspect_evals/{name}/{name}.py"
    return "route_empty_responses" in module.read_text()


def staging_files(root: Path) -> list[Path]:
    return sorted(root.rglob(f"{STAGING_PREFIX}*"))


def move_out(repo: Path, relative: str, outside: Path) -> Path:
    """Move a folder or file of the repository out, leaving a link to it."""
    source = repo / relative
    moved = outside / source.name
    source.rename(moved)
    source.symlink_to(moved)
    return moved


# -- writes stay inside the repository ---------------------------------------


def test_an_eval_folder_linked_from_elsewhere_is_skipped(
    repo, registry, outside, capsys
):
    move_out(repo, "src/inspect_evals/alpha", outside)
    before = snapshot(outside)
    assert migrate(repo, registry, "--all") == 0
    assert snapshot(outside) == before
    err = capsys.readouterr().err
    assert (
        "alpha: skipped: src/inspect_evals/alpha/alpha.py, "
        "src/inspect_evals/alpha/empty_response.yaml: src/inspect_evals/alpha "
        "is a symbolic link: migrate the files where they live"
    ) in err
    assert all(migrated(repo, name) for name in ["beta", "delta", "gamma"])


def test_a_linked_scorer_file_stays_a_link_and_its_eval_is_skipped(
    repo, registry, outside, capsys
):
    move_out(repo, "src/inspect_evals/beta/beta.py", outside)
    before = snapshot(outside)
    assert migrate(repo, registry, "--eval", "beta") == 0
    assert (repo / "src/inspect_evals/beta/beta.py").is_symlink()
    assert snapshot(outside) == before
    assert "beta: skipped: " in capsys.readouterr().err
    assert not (repo / ROUTER).exists()


def test_a_linked_shared_folder_skips_every_eval_that_needs_it(
    repo, registry, outside, capsys
):
    (outside / "utils").mkdir()
    (repo / "src/inspect_evals/utils").symlink_to(outside / "utils")
    before = snapshot(repo)
    assert migrate(repo, registry, "--all") == 0
    assert list((outside / "utils").iterdir()) == []
    assert snapshot(repo) == before
    err = capsys.readouterr().err
    assert "src/inspect_evals/utils is a symbolic link" in err
    assert "4 evals: 0 rewritten, 0 unchanged, 4 skipped, 0 failed" in err


def test_the_dry_run_says_what_a_write_would_skip(repo, registry, outside, capsys):
    move_out(repo, "src/inspect_evals/alpha", outside)
    assert migrate(repo, registry, "--eval", "alpha", "--dry-run") == 0
    out, err = capsys.readouterr()
    assert out == ""
    assert "alpha: skipped: " in err and "is a symbolic link" in err


# -- a destination that cannot be written --------------------------------------


def test_a_folder_at_a_destination_fails_its_eval_before_anything_of_it_is_written(
    repo, registry, capsys
):
    migrate(repo, registry, "--eval", "beta", "--dry-run", "--format", "json")
    files = json.loads(capsys.readouterr().out)["evals"][0]["files"]
    blocked = next(f["path"] for f in files if f["path"].startswith("tests/beta/"))
    (repo / blocked).mkdir(parents=True)
    beta = snapshot(repo / "src/inspect_evals/beta")
    assert migrate(repo, registry, "--all", "--format", "json") == 3
    report = json.loads(capsys.readouterr().out)
    status = {e["eval"]: (e["status"], e["reason"]) for e in report["evals"]}
    assert status["beta"] == (
        "failed",
        f"not written: {blocked} is a folder where a file must go",
    )
    assert report["summary"] == {
        "rewritten": 3,
        "unchanged": 0,
        "skipped": 0,
        "failed": 1,
        "not_in_registry": 0,
    }
    assert snapshot(repo / "src/inspect_evals/beta") == beta
    assert all(migrated(repo, name) for name in ["alpha", "delta", "gamma"])
    assert staging_files(repo) == []


def test_when_the_unit_holding_the_router_fails_the_next_one_writes_it(
    repo, registry, capsys
):
    migrate(repo, registry, "--eval", "alpha", "--dry-run", "--format", "json")
    files = json.loads(capsys.readouterr().out)["evals"][0]["files"]
    blocked = next(f["path"] for f in files if f["path"].startswith("tests/alpha/"))
    (repo / blocked).mkdir(parents=True)
    assert migrate(repo, registry, "--all") == 3
    err = capsys.readouterr().err
    assert f"alpha: failed: not written: {blocked} is a folder" in err
    assert not migrated(repo, "alpha")
    assert (repo / ROUTER).is_file()
    assert all(migrated(repo, name) for name in ["beta", "delta", "gamma"])


# -- the command line -----------------------------------------------------------


def test_all_with_eval_is_an_error(repo, registry, capsys):
    assert migrate(repo, registry, "--all", "--eval", "alpha") == 2
    assert capsys.readouterr().err == (
        "empty-migrate: --all and --eval exclude each other: pass one of them\n"
    )


def test_an_empty_codemod_selection_is_an_error(repo, registry, capsys):
    before = snapshot(repo)
    code = migrate(
        repo, registry, "--all", "--only", "wrap_router", "--skip", "wrap_router"
    )
    assert code == 2
    assert capsys.readouterr().err == (
        "empty-migrate: --only and --skip leave no codemod to run: skip fewer (see "
        "--list-codemods)\n"
    )
    assert snapshot(repo) == before


# -- stopped by a signal (real processes) ----------------------------------------


def start(repo: Path, registry: Path, *args: str, pause: str | None = None, at=None):
    env = {**os.environ}
    env.pop(PAUSE_AT, None)
    env.pop(PAUSE_FILE, None)
    if pause:
        env |= {PAUSE_AT: at, PAUSE_FILE: pause}
    return subprocess.Popen(
        [sys.executable, "-m", "empty_migrate", "--repo", str(repo)]
        + ["--registry", str(registry), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def paused(process: subprocess.Popen, pause: Path) -> int:
    """Wait until the process (or one of its workers) is at its pause; its pid."""
    while not pause.exists() or not pause.read_text():
        assert process.poll() is None, process.communicate()
        time.sleep(0.01)
    return int(pause.read_text())


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_stop_signal_while_writing_finishes_the_unit_and_stops(
    repo, registry, tmp_path, stop
):
    pause = tmp_path / "pause"
    process = start(repo, registry, "--all", pause=str(pause), at="staged")
    paused(process, pause)
    process.send_signal(stop)
    pause.unlink()
    _, err = process.communicate(timeout=60)
    assert process.returncode == 128 + stop
    name = "" if stop == signal.SIGINT else f" ({signal.Signals(stop).name})"
    assert err.splitlines()[-1] == (
        f"empty-migrate: interrupted{name}: wrote 1 of 4 changed evals, each in full; "
        "run the same command again to migrate the rest"
    )
    assert [migrated(repo, n) for n in EVALS] == [True, False, False, False]
    assert staging_files(repo) == []
    assert "Traceback" not in err


@pytest.mark.slow
def test_a_stop_while_computing_writes_nothing(repo, registry, tmp_path):
    before = snapshot(repo)
    pause = tmp_path / "pause"
    process = start(repo, registry, "--eval", "alpha", pause=str(pause), at="migrating")
    paused(process, pause)
    process.send_signal(signal.SIGTERM)
    pause.unlink()
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143
    assert err == "empty-migrate: interrupted (SIGTERM); nothing was written\n"
    assert snapshot(repo) == before


@pytest.mark.slow
@pytest.mark.parametrize("point", ["staged", "renaming"])
def test_the_next_run_clears_what_a_killed_write_left(repo, registry, tmp_path, point):
    pause = tmp_path / "pause"
    process = start(repo, registry, "--all", pause=str(pause), at=point)
    pid = paused(process, pause)
    process.kill()
    process.communicate(timeout=60)
    assert staging_files(repo)
    pause.unlink()
    rerun = start(repo, registry, "--all")
    _, err = rerun.communicate(timeout=120)
    assert rerun.returncode == 0, err
    first = err.splitlines()[0]
    if point == "staged":
        assert first.startswith("empty-migrate: removed ")
        assert first.endswith(f"staging file(s) a stopped run (pid {pid}) left")
    else:
        assert first.startswith("empty-migrate: finished writing ")
        assert f"a stopped run (pid {pid}) was renaming into place: " in first
    assert staging_files(repo) == []
    assert all(migrated(repo, name) for name in EVALS)


def children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as listing:
        return [int(child) for child in listing.read().split()]


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie waiting to be reaped does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.slow
@pytest.mark.skipif(
    not Path("/proc/self/task").exists() or (os.cpu_count() or 1) < 2,
    reason="reads /proc; a run starts worker processes on two cores or more",
)
def test_no_worker_outlives_a_killed_run(repo, registry, tmp_path):
    pause = tmp_path / "pause"
    process = start(
        repo, registry, "--all", "--dry-run", pause=str(pause), at="migrating"
    )
    worker = paused(process, pause)
    workers = children(process.pid)
    assert worker in workers and worker != process.pid
    process.kill()
    process.communicate(timeout=60)  # returns only when no worker holds stderr
    deadline = time.monotonic() + 30
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [w for w in workers if alive(w)]
