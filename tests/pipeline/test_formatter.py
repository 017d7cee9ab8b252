"""The batch formatter sorts imports as the target's own ruff config does."""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from empty_migrate.pipeline.formatter import Formatter, _imported_modules


def _repo(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text('[tool.ruff]\nsrc = ["src"]\n')
    package = tmp_path / "src" / "evals"
    (package / "utils").mkdir(parents=True)
    (package / "__init__.py").touch()
    (package / "utils" / "__init__.py").touch()
    (package / "utils" / "scorers.py").write_text("X = 1\n")
    return tmp_path


def _ruff_in_place(repo: Path, path: str, text: str) -> str:
    """What the target's ruff makes of the file written into the target itself."""
    (repo / path).write_text(text)
    for args in (["check", "--select", "I", "--fix", "--quiet"], ["format", "-q"]):
        subprocess.run([sys.executable, "-m", "ruff", *args, path], cwd=repo)
    return (repo / path).read_text()


LAYOUTS = {
    "regular_packages": ["src/evals/__init__.py", "src/evals/demo/__init__.py"],
    "namespace_top": ["src/evals/demo/__init__.py"],
    "no_packages": [],
    "top_package_only": ["src/evals/__init__.py"],
}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_imports_sort_as_in_the_target_itself(tmp_path, layout):
    repo = tmp_path / "repo"
    (repo / "src/evals/demo").mkdir(parents=True)
    (repo / "src/evals/utils").mkdir(parents=True)
    (repo / "pyproject.toml").write_text('[tool.ruff]\nsrc = ["src"]\n')
    (repo / "src/evals/utils/scorers.py").write_text("X = 1\n")
    for init in LAYOUTS[layout]:
        (repo / init).touch()
    text = textwrap.dedent(
        """\
        from evals.utils.scorers import X
        import os
        from evals.missing import Y
        from evals.utils import scorers
        import requests
        """
    )
    path = "src/evals/demo/task.py"
    formatted = Formatter(repo).format(text, path)
    assert formatted == _ruff_in_place(repo, path, text)


def test_a_file_written_in_the_same_batch_counts_as_first_party(tmp_path):
    repo = _repo(tmp_path)
    texts = {
        "src/evals/new_module.py": "Z = 1\n",
        "src/evals/task.py": "from evals.new_module import Z\nimport requests\n",
    }
    formatted = Formatter(repo).format_all(texts)
    assert formatted["src/evals/task.py"] == (
        "import requests\n\nfrom evals.new_module import Z\n"
    )


def test_imported_modules_reads_every_import_form():
    text = textwrap.dedent(
        """\
        import os, json as j
        from a.b import (
            c,
            d,
        )
        if True:
            from e.f import g  # nested
        """
    )
    assert _imported_modules(text) == {"os", "json", "a.b", "e.f"}


def test_a_batch_is_keyed_the_same_in_every_process(tmp_path):
    """Stand-ins come in one order whatever the hash seed: the kept batch is found."""
    import subprocess
    import sys

    (tmp_path / "pyproject.toml").write_text("[tool.ruff]\n")
    for package in ("a", "b", "c", "d", "e", "f"):
        (tmp_path / f"src/inspect_evals/{package}").mkdir(parents=True)
        (tmp_path / f"src/inspect_evals/{package}/__init__.py").write_text("")
    code = (
        "import sys\nfrom pathlib import Path\n"
        "from empty_migrate.pipeline.formatter import Formatter\n"
        "f = Formatter(Path(sys.argv[1]))\n"
        "texts = {f'src/inspect_evals/{p}/m.py': 'x = 1\\n' for p in 'abcdef'}\n"
        "print(f._key(texts, {'pyproject.toml': ''}, f._stand_ins(texts)))\n"
    )
    keys = {
        subprocess.run(
            [sys.executable, "-c", code, str(tmp_path)],
            capture_output=True,
            text=True,
            check=True,
            env={**__import__("os").environ, "PYTHONHASHSEED": str(seed)},
        ).stdout
        for seed in range(6)
    }
    assert len(keys) == 1
