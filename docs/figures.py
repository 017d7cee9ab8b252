"""Every command output, count and figure the docs quote, produced from the real run.

The docs hold each figure between markers, ``<!--f:NAME-->`` and ``<!--/f-->``
(inline in a sentence, or around a fenced block). This script computes every
figure, from the package itself, the committed logs (tests/logs/data) and
the pinned inspect_evals 0.26.0, and writes it between its markers; tests
fail while a document holds anything else (tests/docs, tests/corpus).

    python docs/figures.py                 # list the stale figures (exit 1 if any)
    python docs/figures.py --write         # write them
    python docs/figures.py --corpus TREE   # the figures of the real tree as well

A figure is ``cheap`` (the package alone, well under a second), ``slow`` (it
reads the committed logs with inspect_ai, seconds) or ``corpus`` (it runs the
migration on a copy of the 0.26.0 tree ``TREE``, about a minute).
"""

import argparse
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = ["README.md", "MIGRATION.md", "bench/README.md", "docs/*.md", "docs/*/*.md"]
"""Where figures are quoted, from the repository root."""
MARK = re.compile(r"<!--f:(?P<name>[a-z0-9-]+)-->(?P<body>.*?)<!--/f-->", re.DOTALL)
TODAY = "2026-11-29"
"""The date the corpus runs write into changelogs, so that their output is stable."""
COMMITTED_LOG = "tests/logs/data/0.3.79/gpqa_diamond.eval"
AUDITED_LOG = "tests/logs/data/0.3.285/xstest.eval"


@dataclass(frozen=True)
class Figure:
    """One figure: its name, its cost, and how it is computed."""

    name: str
    kind: str
    """``cheap``, ``slow`` or ``corpus``."""
    produce: Callable[["Context"], str]


@dataclass
class Context:
    """What the figures are computed from: the repository, and the real tree."""

    tree: Path | None = None
    _runs: dict[str, Any] | None = None

    def corpus(self) -> dict[str, Any]:
        """The real tree's runs, made once: see `_corpus_runs`."""
        if self._runs is None:
            if self.tree is None:
                raise SystemExit("corpus figures need --corpus TREE")
            self._runs = _corpus_runs(self.tree)
        return self._runs


# ---- running the command line ------------------------------------------------


def run_cli(*args: str, cwd: Path = ROOT) -> tuple[int, str, str]:
    """`empty-migrate ARGS` as a process, plain (no color, no progress bar)."""
    env = os.environ | {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "src"), *filter(None, [env.get("PYTHONPATH")])]
    )
    done = subprocess.run(
        [sys.executable, "-m", "empty_migrate", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


def console(command: str, output: str, fence: str = "console") -> str:
    """A fenced block: the command as typed, then what it printed."""
    return f"\n```{fence}\n$ {command}\n{output.rstrip()}\n```\n"


# ---- cheap figures -------------------------------------------------------------


def cli_reference(_: Context) -> str:
    """Every command's `--help`, from the parser itself (cli/parser.py)."""
    from empty_migrate.cli.parser import COMMANDS, build_parser

    parts = ["\n## `empty-migrate`\n", _help_block(build_parser()[0])]
    for name, (_, declare) in COMMANDS.items():
        command = argparse.ArgumentParser(prog=f"empty-migrate {name}")
        declare(command)
        parts += [f"\n## `empty-migrate {name}`\n", _help_block(command)]
        for action in command._actions:  # argparse keeps subcommands only here
            if isinstance(action, argparse._SubParsersAction):
                for sub, parser in action.choices.items():
                    parts += [f"\n### `empty-migrate {name} {sub}`\n"]
                    parts.append(_help_block(parser))
    return "\n".join(parts) + "\n"


def _help_block(parser: argparse.ArgumentParser) -> str:
    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "88"  # argparse wraps to the terminal's width
    try:
        text = parser.format_help()
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous
    return f"```text\n{text.rstrip()}\n```"


def outcomes_of_committed_log(_: Context) -> str:
    """`outcomes` on a log of the committed set, as it prints it."""
    from empty_migrate.cli.main import main

    stream = io.StringIO()
    with contextlib.redirect_stdout(stream):
        code = main(["outcomes", str(ROOT / COMMITTED_LOG)])
    assert code == 0, code
    return console(f"empty-migrate outcomes {COMMITTED_LOG}", stream.getvalue())


def fortress_entry(_: Context) -> str:
    """The registry file of fortress, as it is."""
    text = (ROOT / "src/empty_migrate/registry/evals/fortress.yaml").read_text()
    return f"\n```yaml\n{text.rstrip()}\n```\n"


def released_texts(_: Context) -> str:
    """How many texts of the two generated modules the package knows."""
    path = ROOT / "src/empty_migrate/codemods/kit/released.json"
    known = json.loads(path.read_text())
    counts = {name: len(digests) for name, digests in known.items()}
    router = next(n for name, n in counts.items() if "src/" in name or "router" in name)
    helpers = next(n for name, n in counts.items() if name.startswith("tests"))
    return f"{router} router and {helpers} helpers texts"


def provider_outputs(_: Context) -> str:
    """How many provider-shaped outputs the fixture library holds."""
    from empty_migrate.testing.provider_outputs import PROVIDER_OUTPUTS

    return str(len(PROVIDER_OUTPUTS))


def registry_files(_: Context) -> str:
    """How many eval entries the packaged registry holds."""
    from empty_migrate.registry import loader

    evals = Path(loader.__file__).parent / "evals"
    return str(len(list(evals.glob("*.yaml"))))


def offline_errors(_: Context) -> str:
    """How many evals' emitted tests expect the scorer's own error offline."""
    from empty_migrate.entries.schema import EvalEntry, resolve
    from empty_migrate.registry.loader import load_registry

    # each scorer's settings on each of its tasks, resolved as the emitter does
    def expects_one(entry: EvalEntry) -> bool:
        return any(
            resolve(entry, task, scorer).probe_offline
            for scorer in entry.scorers
            for task in entry.tasks_of(scorer)
        )

    evals = load_registry().evals.values()
    return f"{sum(map(expects_one, evals))} evals"


def raise_advice(_: Context) -> str:
    """What a raise means for a run: the paragraph every PR text carries."""
    from empty_migrate.delivery.pull_request import RAISES_IN_A_RUN

    return "\n" + _wrap(RAISES_IN_A_RUN) + "\n"


def _wrap(text: str, width: int = 88) -> str:
    import textwrap

    return textwrap.fill(text, width, break_on_hyphens=False, break_long_words=False)


def audit_json_keys(_: Context) -> str:
    """The keys of `audit --format json`, from the code that writes it."""
    from empty_migrate.audit.matrix import Audit, Row

    top = json.loads(Audit(tree="", rows=[], not_run=[]).to_json())
    row = [f"`{f.name}`" for f in fields(Row)]
    return (
        f"`--format json` writes `{{{', '.join(map(json.dumps, top))}}}`; "
        f"each row has {', '.join(row[:-1])} and {row[-1]}"
    )


def audit_of_committed_log(_: Context) -> str:
    """`audit --log` on a log of the committed set (it loads inspect_ai)."""
    code, out, err = run_cli("audit", "--log", AUDITED_LOG, "--eval", "xstest")
    assert code == 0, err
    return console(f"empty-migrate audit --log {AUDITED_LOG} --eval xstest", out)


# ---- corpus figures -----------------------------------------------------------


def _corpus_runs(tree: Path) -> dict[str, Any]:
    """The runs the corpus figures read, each on a copy of `tree`."""
    with tempfile.TemporaryDirectory(prefix="figures-") as scratch:
        copy = Path(scratch) / "inspect_evals"
        subprocess.run(["git", "clone", "-q", str(tree), str(copy)], check=True)
        for key, value in (("user.name", "Docs"), ("user.email", "docs@example.org")):
            subprocess.run(["git", "-C", str(copy), "config", key, value], check=True)
        today = ("--today", TODAY)
        runs: dict[str, Any] = {}
        runs["xstest"] = run_cli("--eval", "xstest", "--dry-run", *today, cwd=copy)
        runs["all"] = run_cli("--all", "--dry-run", *today, cwd=copy)
        as_json = run_cli("--all", "--dry-run", "--format", "json", *today, cwd=copy)
        runs["all_json"] = json.loads(as_json[1])
        runs["lint"] = json.loads(run_cli("lint", "--format", "json", cwd=copy)[1])
        runs["campaign"] = run_cli("--all", "--branch-per-eval", *today, cwd=copy)
        runs["gpqa"] = _numstat(copy, "empty-policy/foundation", "empty-policy/gpqa")
        return runs


def _numstat(repo: Path, base: str, head: str) -> list[tuple[int, int, str]]:
    out = subprocess.run(
        ["git", "-C", str(repo), "diff", "--numstat", base, head],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rows = [line.split("\t") for line in out.splitlines()]
    return [(int(added), int(removed), path) for added, removed, path in rows]


def _stat(rows: list[tuple[int, int, str]]) -> tuple[int, int, int]:
    return sum(r[0] for r in rows), sum(r[1] for r in rows), len(rows)


def outcomes_on_s3(_: Context) -> str:
    """`outcomes` on a log in a bucket of a real S3-compatible server (moto's).

    The log is the committed one `audit_of_committed_log` reads; then a key that
    is not there, and a server that refuses the credentials.
    """
    sys.path.insert(0, str(ROOT))
    from tests.s3server import s3_server, upload

    log = f"s3://evals/logs/{Path(AUDITED_LOG).name}"
    missing = "s3://evals/logs/nothing.eval"
    blocks = []
    with tempfile.TemporaryDirectory() as folder, s3_server() as env:
        (Path(folder) / Path(AUDITED_LOG).name).write_bytes(
            (ROOT / AUDITED_LOG).read_bytes()
        )
        upload(env, "evals", Path(folder), "logs")
        with _environment(env):
            for location in (log, missing):
                _, out, err = run_cli("outcomes", location)
                blocks.append((f"empty-migrate outcomes {location}", out + err))
    with s3_server(refuse_credentials=True) as env, _environment(env):
        _, out, err = run_cli("outcomes", log)
        blocks.append((f"empty-migrate outcomes {log}   # refused", out + err))
    text = "\n".join(f"$ {command}\n{output.rstrip()}" for command, output in blocks)
    return f"\n```console\n{text}\n```\n"


SCOUT_READ = """\
frame = scan_results_df(scan).scanners["empty_outcome"]
rows = pd.json_normalize(frame["metadata"].map(json.loads).tolist())
rows = rows.sort_values("sample_id")[["sample_id", "outcome", "signal", "stop_reason"]]
print(rows.to_string(index=False))
"""


def scout_scan_of_committed_log(_: Context) -> str:
    """`scout scan` with the package's scanner on a committed log, and its rows."""
    import json

    import pandas as pd
    from inspect_scout import scan_results_df

    scout = Path(sys.executable).with_name("scout")
    with tempfile.TemporaryDirectory() as folder:
        logs = Path(folder) / "logs"
        logs.mkdir()
        (logs / Path(AUDITED_LOG).name).write_bytes((ROOT / AUDITED_LOG).read_bytes())
        command = [str(scout), "scan", "empty_migrate/empty_outcome", "-T", "logs"]
        subprocess.run(
            [*command, "--scans", "scans", "--display", "none"],
            cwd=folder,
            check=True,
            capture_output=True,
        )
        [scan] = (Path(folder) / "scans").glob("scan_id=*")
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(
                SCOUT_READ,
                {
                    "scan_results_df": scan_results_df,
                    "scan": str(scan),
                    "pd": pd,
                    "json": json,
                },
            )
    return (
        "\n```bash\nscout scan empty_migrate/empty_outcome -T logs\n```\n\n"
        f"```python\n{SCOUT_READ}```\n\n```text\n{printed.getvalue().rstrip()}\n```\n"
    )


@contextlib.contextmanager
def _environment(env: dict[str, str]) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in env}
    os.environ.update(env)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def xstest_diff_size(context: Context) -> str:
    """The size of the xstest dry run's diff, without the shared files."""
    _, diff, _ = context.corpus()["xstest"]
    rows: list[list[Any]] = []
    for line in diff.splitlines():
        if line.startswith("+++ ") or line.startswith("--- "):
            continue
        if line.startswith("diff --git"):
            rows.append([0, 0, line])
        elif rows and line[:1] in "+-" and line:
            rows[-1][0 if line[0] == "+" else 1] += 1
    added, removed, files = _stat([(r[0], r[1], r[2]) for r in rows])
    changed = f"{added + removed} changed lines over {files} files"
    return f"{changed} ({added} added, {removed} removed)"


def shared_header(context: Context) -> str:
    """The `#` header of the xstest dry run: the shared files and their size."""
    _, diff, _ = context.corpus()["xstest"]
    header = [line for line in diff.splitlines() if line.startswith("#")]
    return "\n```text\n" + "\n".join(header) + "\n```\n"


def xstest_summary(context: Context) -> str:
    """What `--eval xstest --dry-run` writes to stderr."""
    _, _, err = context.corpus()["xstest"]
    return console("empty-migrate --eval xstest --dry-run > xstest.patch", err, "text")


def all_summary_whole(context: Context) -> str:
    """All of `--all --dry-run`'s stderr: the short summary a run ends with."""
    _, _, err = context.corpus()["all"]
    return console("empty-migrate --all --dry-run > all.patch", err, "text")


def review_comments(context: Context) -> str:
    """How many comments an `--all` run flags, and in which evals."""
    report = context.corpus()["all_json"]
    per_eval = Counter(
        result["eval"]
        for result in report["evals"]
        for file in result["files"]
        for _ in file.get("review", [])
    )
    listed = ", ".join(
        name if n == 1 else f"{name} ×{n}" for name, n in sorted(per_eval.items())
    )
    return f"{sum(per_eval.values())} comments ({listed})"


def gpqa_pull_request(context: Context) -> str:
    """The size of gpqa's branch against the foundation."""
    added, removed, files = _stat(context.corpus()["gpqa"])
    return f"+{added} −{removed} over {files} files"


def branch_count(context: Context) -> str:
    """How many branches a campaign on 0.26.0 makes."""
    _, _, err = context.corpus()["campaign"]
    last = err.strip().splitlines()[-1]
    found = re.search(r"(\d+) branch\(es\)", last)
    assert found, last
    return found.group(1)


def campaign_summary(context: Context) -> str:
    """The last line a campaign on 0.26.0 writes."""
    _, _, err = context.corpus()["campaign"]
    return console(
        "empty-migrate --all --branch-per-eval", err.strip().splitlines()[-1], "text"
    )


def lint_of_pristine(context: Context) -> str:
    """What lint finds on the tree as released, by code."""
    findings = context.corpus()["lint"]["findings"]
    codes = Counter(f["code"] for f in findings)
    by_code = ", ".join(f"{n} {code}" for code, n in sorted(codes.items()))
    return f"{len(findings)} findings ({by_code})"


FIGURES = {
    f.name: f
    for f in [
        Figure("cli-reference", "cheap", cli_reference),
        Figure("outcomes-committed-log", "slow", outcomes_of_committed_log),
        Figure("fortress-entry", "cheap", fortress_entry),
        Figure("released-texts", "cheap", released_texts),
        Figure("audit-json-keys", "cheap", audit_json_keys),
        Figure("raise-advice", "cheap", raise_advice),
        Figure("provider-outputs", "cheap", provider_outputs),
        Figure("registry-files", "cheap", registry_files),
        Figure("offline-errors", "cheap", offline_errors),
        Figure("audit-log-committed", "slow", audit_of_committed_log),
        Figure("outcomes-on-s3", "slow", outcomes_on_s3),
        Figure("scout-scan-committed-log", "slow", scout_scan_of_committed_log),
        Figure("xstest-diff-size", "corpus", xstest_diff_size),
        Figure("shared-header", "corpus", shared_header),
        Figure("xstest-summary", "corpus", xstest_summary),
        Figure("all-summary-whole", "corpus", all_summary_whole),
        Figure("review-comments", "corpus", review_comments),
        Figure("gpqa-pull-request", "corpus", gpqa_pull_request),
        Figure("branch-count", "corpus", branch_count),
        Figure("campaign-summary", "corpus", campaign_summary),
        Figure("lint-pristine", "corpus", lint_of_pristine),
    ]
}
"""Every figure the docs quote, by the name its markers carry."""


# ---- the documents -------------------------------------------------------------


def documents() -> Iterator[Path]:
    """Every document that may quote a figure."""
    for pattern in DOCUMENTS:
        yield from sorted(ROOT.glob(pattern))


def quoted(kinds: set[str]) -> dict[Path, list[str]]:
    """Per document, the names of the figures of `kinds` it quotes."""
    found: dict[Path, list[str]] = {}
    for path in documents():
        names = [m["name"] for m in MARK.finditer(path.read_text(encoding="utf-8"))]
        mine = [n for n in names if n not in FIGURES or FIGURES[n].kind in kinds]
        if mine:
            found[path] = mine
    return found


def compute(kinds: set[str], context: Context) -> dict[str, str]:
    """Each figure of `kinds`, computed."""
    return {n: f.produce(context) for n, f in FIGURES.items() if f.kind in kinds}


def stale(values: dict[str, str]) -> list[str]:
    """One line per quoted figure that differs from `values`, or names none."""
    problems = []
    for path in documents():
        for match in MARK.finditer(path.read_text(encoding="utf-8")):
            name, where = match["name"], path.relative_to(ROOT)
            if name not in FIGURES:
                problems.append(f"{where}: unknown figure {name!r}")
            elif name in values and match["body"] != values[name]:
                problems.append(
                    f"{where}: figure {name!r} is stale; expected:\n{values[name]}"
                )
    return problems


def write(values: dict[str, str]) -> list[Path]:
    """Write each of `values` between its markers; the documents changed."""
    changed = []
    for path in documents():
        text = path.read_text(encoding="utf-8")

        def replaced(match: re.Match[str]) -> str:
            body = values.get(match["name"], match["body"])
            return f"<!--f:{match['name']}-->{body}<!--/f-->"

        new = MARK.sub(replaced, text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


def cli(argv: list[str] | None = None) -> int:
    """List or write the stale figures."""
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--write", action="store_true", help="write the figures")
    parser.add_argument("--corpus", type=Path, metavar="TREE", help="0.26.0's tree")
    parser.add_argument("--no-slow", action="store_true", help="skip slow figures")
    args = parser.parse_args(argv)
    kinds = {"cheap"} | (set() if args.no_slow else {"slow"})
    kinds |= {"corpus"} if args.corpus else set()
    values = compute(kinds, Context(tree=args.corpus))
    if args.write:
        for path in write(values):
            print(f"wrote {path.relative_to(ROOT)}")
        return 0
    problems = stale(values)
    print("\n".join(problems) or "every figure is up to date")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    raise SystemExit(cli())
