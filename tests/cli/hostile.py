"""What a user can type or a file can hold, as files for the command-line sweeps.

`HostileInputs` makes each input when a command line first names it (a case
names them as ``{name}`` placeholders): paths that do not exist, a folder
where a file is expected, empty files, binary garbage, text that is not JSON,
a demo tree that is not a git repository and one that is, saved audits
(`saved_audit`), and copies of a real log made hostile.
"""

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from empty_migrate.audit.matrix import Audit, NotRun, Row
from tests.delivery.campaigns import build_campaign_repo
from tests.demo import DemoTree

LOGS = Path(__file__).parents[1] / "logs" / "data" / "0.3.285"
"""Real logs written by inspect_ai 0.3.285 (see tests/logs)."""
GARBAGE = bytes(range(256)) * 16
"""Binary garbage: every byte value, not UTF-8, not JSON, not a zip file."""


def saved_audit(**row_fields: Any) -> str:
    """A saved audit (``audit --format json``) of two rows; the first gets `row_fields`.

    Built by the audit's own classes: a field set here is written as given.
    """
    rows = [_row("empty", "no_output", "wrong"), _row("answered", "answered", "judge")]
    document = json.loads(
        Audit("demo-tree", rows, [NotRun("other", None, "x", "build")]).to_json()
    )
    document["rows"][0].update(row_fields)
    return json.dumps(document)


def _row(fixture: str, outcome: str, route: str) -> Row:
    return Row(
        **{"eval": "demo", "task": "demo", "scorer": "demo_scorer"},
        category="qa",
        fixture=fixture,
        outcome=outcome,
        value="I" if route == "wrong" else "C",
        reason="no_response" if route == "wrong" else None,
        explanation=None,
        judge_calls=1 if route == "judge" else 0,
        raised=None,
        raised_message=None,
        empty_outcome=outcome if route == "wrong" else None,
        unscored=False,
        route=route,
        policy_route="score",
    )


class HostileInputs(dict[str, str]):
    """``{name}`` -> the path of that input, made under `root` when first asked."""

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root
        self.makers: dict[str, Callable[[], Path]] = {
            "nope": lambda: root / "no-such-file.json",
            "folder": lambda: self._folder("folder"),
            "empty": lambda: self._file("empty.json", b""),
            "empty_eval": lambda: self._file("empty.eval", b""),
            "garbage": lambda: self._file("garbage.json", GARBAGE),
            "garbage_eval": lambda: self._file("garbage.eval", GARBAGE),
            "text": lambda: self._file("text.json", b"this is not JSON\n"),
            "tree": lambda: self._demo("demo").repo,
            "registry": lambda: self._demo("demo").registry,
            "git": lambda: self._campaign().repo,
            "git_registry": lambda: self._campaign().registry,
            "audit": lambda: self._file("audit.json", saved_audit().encode()),
            "bad_route": lambda: self._saved("route.json", route="no_such_route"),
            "bad_count": lambda: self._saved("count.json", judge_calls="x"),
            "bad_faults": lambda: self._saved("faults.json", faults=5),
            "no_eval": lambda: self._saved("eval.json", eval=None),
            "link": lambda: self._link("link.html", root / "elsewhere.html"),
            "deep_log": lambda: self._log("deep.json", _deep_metadata),
            "huge_int_log": lambda: self._log("huge-int.json", _huge_integer),
        }

    def __missing__(self, name: str) -> str:
        self[name] = str(self.makers[name]())
        return self[name]

    def line(self, template: list[str]) -> list[str]:
        """The command line `template` with each ``{name}`` made and filled in."""
        return [part.format_map(self) for part in template]

    def _folder(self, name: str) -> Path:
        (self.root / name).mkdir(exist_ok=True)
        return self.root / name

    def _file(self, name: str, data: bytes) -> Path:
        (self.root / name).write_bytes(data)
        return self.root / name

    def _saved(self, name: str, **row_fields: Any) -> Path:
        return self._file(name, saved_audit(**row_fields).encode())

    def _link(self, name: str, to: Path) -> Path:
        (self.root / name).symlink_to(to)
        return self.root / name

    def _demo(self, name: str) -> DemoTree:
        tree = DemoTree(self.root / name)
        if not tree.repo.exists():
            DemoTree.create(tree.root).add_demo_eval()
        return tree

    def _campaign(self) -> DemoTree:
        tree = DemoTree(self.root / "campaign")
        if not tree.repo.exists():
            build_campaign_repo(DemoTree.create(tree.root))
        return tree

    def _log(self, name: str, change: Callable[[str], str]) -> Path:
        text = (LOGS / "xstest.json").read_text(encoding="utf-8")
        return self._file(name, change(text).encode())


def _deep_metadata(log: str) -> str:
    """The log with a sample's metadata nested 3,000 deep (a 6 KB addition)."""
    deep = "[" * 3000 + "]" * 3000
    return log.replace('"metadata": {}', f'"metadata": {{"x": {deep}}}', 1)


def _huge_integer(log: str) -> str:
    """The log with an integer of 5,000 digits in its first bytes."""
    return log.replace("{", '{"big": ' + "9" * 5000 + ", ", 1)


def commit_all(repo: Path, message: str) -> None:
    """Commit every change of `repo` (a test's own repository)."""
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(
        ["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", message],
        check=True,
    )
