"""The write path cannot hurt the user's tree: each defect found by trying it."""

import hashlib
import io
import os
import signal
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from empty_migrate.cli.main import main
from empty_migrate.pipeline import write
from empty_migrate.pipeline.formatter import Formatter
from empty_migrate.pipeline.runner import FileResult
from empty_migrate.target import files
from empty_migrate.target.corpus import fetch_release
from empty_migrate.target.ruff import Ruff
from tests.demo import choice_entry, choice_task, fake_cached_release

EVALS = ["alpha", "beta", "delta", "gamma"]  # --all runs them in this order


@pytest.fixture
def repo(demo):
    """Four evals, each scored by choice() in a task of its own."""
    for name in EVALS:
        demo.add_eval(name, {f"{name}.py": choice_task(name)}, choice_entry(name))
    return demo.repo


@pytest.fixture
def registry(demo, repo):
    return demo.registry


def migrate(repo, registry, *args):
    return main(["--repo", str(repo), "--registry", str(registry), "-v", *args])


def snapshot(root: Path) -> dict[str, tuple[str, int]]:
    """Every file's content hash and mode, and every folder, under `root`."""
    return {
        str(path.relative_to(root)): (
            hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "dir",
            path.stat().st_mode,
        )
        for path in sorted(root.rglob("*"))
    }


def failing_ruff(monkeypatch):
    command = [
        sys.executable,
        "-c",
        "import sys; print('boom', file=sys.stderr); sys.exit(2)",
    ]
    monkeypatch.setattr(
        "empty_migrate.pipeline.formatter.ruff_for",
        lambda repo: Ruff(tuple(command), "0"),
    )


def test_a_formatter_that_fails_leaves_the_tree_byte_identical(
    repo, registry, monkeypatch, capsys
):
    failing_ruff(monkeypatch)
    before = snapshot(repo)
    assert migrate(repo, registry, "--all") == 3
    assert snapshot(repo) == before
    err = capsys.readouterr().err
    assert "alpha: failed: ruff check failed: boom" in err
    assert "4 evals: 0 rewritten, 0 unchanged, 0 skipped, 4 failed; changed 0" in err


def break_formatting_of(monkeypatch, name):
    """The real formatter, except that one eval's files come out not compiling."""
    format_all = Formatter.format_all

    def breaking(self, texts):
        formatted = format_all(self, texts)
        return {p: t + "def (:\n" if name in p else t for p, t in formatted.items()}

    monkeypatch.setattr(Formatter, "format_all", breaking)


def test_a_file_that_no_longer_compiles_after_formatting_fails_its_eval_only(
    repo, registry, monkeypatch, capsys
):
    break_formatting_of(monkeypatch, "beta")
    beta = repo / "src/inspect_evals/beta/beta.py"
    original = beta.read_bytes()
    assert migrate(repo, registry, "--all") == 3
    assert beta.read_bytes() == original
    err = capsys.readouterr().err
    assert "beta: failed: src/inspect_evals/beta/beta.py: does not compile" in err
    assert "4 evals: 3 rewritten, 0 unchanged, 0 skipped, 1 failed" in err
    # the other evals, and the shared router they import, are still written
    assert (
        "route_empty_responses"
        in (repo / "src/inspect_evals/gamma/gamma.py").read_text()
    )
    assert (repo / "src/inspect_evals/utils/empty_response.py").is_file()


def test_when_the_router_installer_fails_the_next_eval_installs_the_router(
    repo, registry, monkeypatch, capsys
):
    break_formatting_of(monkeypatch, "alpha")
    monkeypatch.setattr("empty_migrate.pipeline.migrate.os.cpu_count", lambda: 1)
    assert migrate(repo, registry, "--all") == 3
    err = capsys.readouterr().err
    assert (
        "beta: rewritten: 5 file(s): emit_policy_tests, install_router, wrap_router, "
        "write_registry_entry" in err
    )
    router = repo / "src/inspect_evals/utils/empty_response.py"
    assert "def route_empty_responses" in router.read_text()
    fixtures = repo / "tests/utils/empty_response.py"
    assert "def outcome_output" in fixtures.read_text()


@pytest.mark.slow  # a real SIGINT at each of eight points: eight whole runs and reruns
@pytest.mark.parametrize("stop_at", range(1, 9))
def test_ctrl_c_while_writing_leaves_every_eval_whole(
    repo, registry, monkeypatch, capsys, stop_at
):
    replace = os.replace
    calls = []

    def interrupted_replace(source, destination):
        if Path(destination).is_relative_to(repo):  # not the tool's own cache
            calls.append(destination)
            if len(calls) == stop_at:
                signal.raise_signal(signal.SIGINT)
        replace(source, destination)

    monkeypatch.setattr(files.os, "replace", interrupted_replace)
    code = migrate(repo, registry, "--all")
    err = capsys.readouterr().err
    migrated = {
        name: "route_empty_responses"
        in (repo / f"src/inspect_evals/{name}/{name}.py").read_text()
        for name in EVALS
    }
    done = sum(migrated.values())
    assert list(migrated.values()) == [True] * done + [False] * (4 - done)
    if done < 4:
        assert code == 130
        assert err.strip().splitlines()[-1] == (
            f"empty-migrate: interrupted: wrote {done} of 4 changed evals, each in "
            "full; run the same command again to migrate the rest"
        )
    assert not list(repo.rglob(".em-*"))
    assert migrate(repo, registry, "--all") == 0
    assert all(
        "route_empty_responses" in (repo / f"src/inspect_evals/{n}/{n}.py").read_text()
        for n in EVALS
    )


def test_ctrl_c_before_writing_writes_nothing(repo, registry, monkeypatch, capsys):
    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("empty_migrate.cli.migrate.migrate", interrupt)
    before = snapshot(repo)
    assert migrate(repo, registry, "--all") == 130
    assert snapshot(repo) == before
    assert (
        capsys.readouterr().err == "empty-migrate: interrupted; nothing was written\n"
    )


def test_a_write_error_leaves_the_unit_untouched(tmp_path):
    (tmp_path / "kept.py").write_text("old\n")
    (tmp_path / "blocked").write_text("a file where a folder must go\n")
    unit = write.WriteUnit(("x",), {"kept.py": "new\n", "blocked/new.py": "x\n"})
    report = write.write_units(tmp_path, [unit])
    assert report.failed == {
        ("x",): "blocked is a file where a folder must go (for blocked/new.py)"
    }
    assert report.written == []
    assert (tmp_path / "kept.py").read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocked", "kept.py"]


def test_new_files_get_the_umask_mode_and_existing_files_keep_theirs(tmp_path):
    (tmp_path / "script.py").write_text("old\n")
    (tmp_path / "script.py").chmod(0o755)
    old = os.umask(0o022)
    try:
        unit = write.WriteUnit(("x",), {"script.py": "new\n", "pkg/new.py": "x\n"})
        write.write_units(tmp_path, [unit])
    finally:
        os.umask(old)
    assert (tmp_path / "pkg/new.py").stat().st_mode & 0o777 == 0o644
    assert (tmp_path / "script.py").stat().st_mode & 0o777 == 0o755


def test_a_write_into_the_cached_release_is_refused(
    tmp_path, registry, monkeypatch, capsys
):
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    tree = fake_cached_release(tmp_path / "cache", "0.26.0")
    before = snapshot(tree)
    code = main(
        [
            "--eval",
            "alpha",
            "--repo",
            "pypi:inspect-evals==0.26.0",
            "--registry",
            str(registry),
        ]
    )
    assert code == 2
    assert capsys.readouterr().err == (
        f"empty-migrate: will not write into the cached release at {tree}: make a "
        f"checkout of your own with `git clone {tree} COPY` (or clone inspect_evals) "
        "and pass --repo COPY, or pass --dry-run to see the diff\n"
    )
    assert snapshot(tree) == before


BACKEND = b"""\
import os


def prepare_metadata_for_build_wheel(directory, config_settings=None):
    info = os.path.join(directory, "inspect_evals-9.9.9.dist-info")
    os.makedirs(info)
    with open(os.path.join(info, "METADATA"), "w") as metadata:
        metadata.write("Metadata-Version: 2.1\\n")
        metadata.write("Name: inspect_evals\\nVersion: 9.9.9\\n")
    return "inspect_evals-9.9.9.dist-info"
"""

# the smallest source distribution pip downloads without an index: an
# in-tree build backend that needs nothing installed
SDIST = {
    "PKG-INFO": b"Metadata-Version: 2.1\nName: inspect_evals\nVersion: 9.9.9\n",
    "pyproject.toml": (
        b'[build-system]\nrequires = []\nbuild-backend = "backend"\n'
        b'backend-path = ["."]\n'
    ),
    "backend.py": BACKEND,
    "src/inspect_evals/__init__.py": b"",
}


def test_the_first_fetch_says_where_the_cache_is(tmp_path, monkeypatch):
    page = tmp_path / "simple/inspect-evals"
    page.mkdir(parents=True)
    archive = io.BytesIO()
    with tarfile.open(fileobj=archive, mode="w:gz") as tar:
        for name, body in SDIST.items():
            info = tarfile.TarInfo(f"inspect_evals-9.9.9/{name}")
            info.size = len(body)
            tar.addfile(info, io.BytesIO(body))
    (page / "inspect_evals-9.9.9.tar.gz").write_bytes(archive.getvalue())
    sha256 = hashlib.sha256(archive.getvalue()).hexdigest()
    link = f'<a href="inspect_evals-9.9.9.tar.gz#sha256={sha256}">archive</a>'
    (page / "index.html").write_text(link)
    monkeypatch.setenv("EMPTY_MIGRATE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("PIP_INDEX_URL", (tmp_path / "simple").as_uri())
    heard: list[str] = []
    tree = fetch_release("9.9.9", heard.append)
    assert tree == tmp_path / "cache/inspect-evals-9.9.9"
    assert heard[0] == (
        f"fetching inspect-evals==9.9.9 into {tree} (once; later runs reuse it)"
    )
    assert len(heard) == 4
    heard.clear()
    assert fetch_release("9.9.9", heard.append) == tree and heard == []


def test_a_selection_that_would_not_import_is_refused(repo, registry, capsys):
    before = snapshot(repo)
    assert migrate(repo, registry, "--all", "--only", "wrap_router") == 2
    assert capsys.readouterr().err == (
        "empty-migrate: wrap_router needs install_router and replace_preset in the "
        "same run: add --only install_router --only replace_preset\n"
    )
    assert migrate(repo, registry, "--all", "--skip", "install_router") == 2
    assert "do not skip install_router" in capsys.readouterr().err
    assert snapshot(repo) == before


def test_a_diff_of_a_file_without_a_final_newline_applies(tmp_path):
    (tmp_path / "a.py").write_text("x = 1")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    patch = tmp_path / "a.patch"
    patch.write_text(FileResult("a.py", "rewritten", "x = 1", "x = 2").diff())
    assert "\\ No newline at end of file" in patch.read_text()
    subprocess.run(["git", "apply", str(patch)], cwd=tmp_path, check=True)
    assert (tmp_path / "a.py").read_text() == "x = 2"


@pytest.mark.parametrize("mode", ["--dry-run", "--check"])
def test_the_summary_goes_to_stderr_in_every_mode(repo, registry, capsys, mode):
    migrate(repo, registry, "--eval", "alpha", mode)
    out, err = capsys.readouterr()
    assert "1 evals: 1 rewritten" in err and "1 evals:" not in out


def test_the_dry_run_shows_the_evals_own_changes_and_summarises_the_router(
    repo, registry, capsys
):
    assert migrate(repo, registry, "--eval", "alpha", "--dry-run") == 0
    out = capsys.readouterr().out
    assert out.startswith("# empty-migrate also changes files every migrated eval")
    assert "#   src/inspect_evals/utils/empty_response.py: new file, " in out
    assert "def route_empty_responses" not in out
    assert out.index("diff --git a/src/inspect_evals/alpha/alpha.py") > 0
    assert migrate(repo, registry, "--eval", "alpha", "--dry-run", "--show-shared") == 0
    full = capsys.readouterr().out
    own = full.index("diff --git a/src/inspect_evals/alpha/alpha.py")
    assert full.startswith("diff --git a/src/inspect_evals/alpha/alpha.py")
    assert full.index("utils/empty_response.py") > own
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    patch = repo.parent / "full.patch"
    patch.write_text(full)
    subprocess.run(["git", "apply", "--check", str(patch)], cwd=repo, check=True)


@pytest.mark.parametrize(
    "argv",
    [
        ["--format", "json", "policy"],
        ["--eval", "x", "policy"],
        ["--all", "registry", "list"],
    ],
)
def test_a_migration_option_before_a_command_is_an_error(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{argv[0]} is a migration option and does not apply" in err


def test_help_names_the_exit_codes_and_that_a_run_writes(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "without --dry-run or --check, the changes are written" in out
    assert "130  interrupted" in out and "3    a codemod or the formatter failed" in out
