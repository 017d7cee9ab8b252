"""Who calls a shared helper: read from the tree, once a run."""

from empty_migrate.analysis.callers import callers, forget
from tests.demo import write_files

CALL = "from inspect_evals.utils.shared import helper\n\nhelper()\n"


def tree(root, files):
    write_files(root, {f"src/inspect_evals/{p}": t for p, t in files.items()})
    return root


def test_every_package_naming_it_but_its_own_file(tmp_path):
    forget()
    repo = tree(
        tmp_path,
        {
            "utils/shared.py": "def helper(): ...\n",
            "alpha/a.py": CALL,
            "beta/deep/b.py": "# helper() is mentioned only\n",
            "gamma/g.py": "X = 1\n",
        },
    )
    assert callers(repo, ["helper"], "utils/shared.py") == {"alpha", "beta"}


def test_a_linked_package_is_read_where_it_leads(tmp_path):
    forget()
    repo = tree(tmp_path, {"utils/shared.py": "def helper(): ...\n"})
    write_files(tmp_path, {"vendor/alpha/a.py": CALL})
    (tmp_path / "src/inspect_evals/alpha").symlink_to(tmp_path / "vendor/alpha")
    (tmp_path / "src/inspect_evals/loop").symlink_to(tmp_path / "src/inspect_evals")
    assert callers(repo, ["helper"], "utils/shared.py") == {"alpha"}


def test_a_run_reads_the_tree_once_and_the_next_one_again(tmp_path):
    forget()
    repo = tree(tmp_path, {"alpha/a.py": CALL})
    assert callers(repo, ["helper"], "utils/shared.py") == {"alpha"}
    (tmp_path / "src/inspect_evals/alpha/a.py").write_text("X = 1\n")
    assert callers(repo, ["helper"], "utils/shared.py") == {"alpha"}
    forget()
    assert callers(repo, ["helper"], "utils/shared.py") == set()
