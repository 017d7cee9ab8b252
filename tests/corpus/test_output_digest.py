"""What `--all --dry-run` prints on 0.26.0 changes only on purpose.

The diff (with the shared files), its summary of each eval (``--verbose``)
and the JSON report are kept as digests in ``output_digests.json``. A change
of the tool that changes them fails here; ``pytest -m corpus --update-golden``
records the new digests, and the change is reviewed in the diff of the
migration's output.
"""

import contextlib
import hashlib
import io
import json
from pathlib import Path

import pytest

from empty_migrate.cli.main import main
from tests.corpus.conftest import TODAY

pytestmark = pytest.mark.corpus

DIGESTS = Path(__file__).with_name("output_digests.json")
RUNS = {
    # --verbose: the summary of each eval, as the run printed it before the
    # short summary became the default (its digest was recorded then)
    "diff": ["--all", "--dry-run", "--show-shared", "--verbose"],
    "json": ["--all", "--dry-run", "--format", "json"],
}


def outputs(tree: Path, args: list[str]) -> tuple[str, str]:
    """stdout and stderr of one run of the command line on `tree`."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([*args, "--repo", str(tree), "--today", TODAY])
    assert code == 0, err.getvalue()
    return out.getvalue(), err.getvalue()


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_the_dry_runs_output_is_the_recorded_one(inspect_evals_tree, request):
    found = {}
    for name, args in RUNS.items():
        stdout, stderr = outputs(inspect_evals_tree, args)
        found[f"{name} stdout"] = digest(stdout)
        if name == "diff":
            found[f"{name} stderr"] = digest(stderr)
    if request.config.getoption("--update-golden"):
        DIGESTS.write_text(json.dumps(found, indent=2) + "\n", encoding="utf-8")
        return
    recorded = json.loads(DIGESTS.read_text(encoding="utf-8"))
    assert found == recorded, (
        "the dry run's output changed; if on purpose, review it and run "
        "`pytest -m corpus --update-golden -k output_digest`"
    )
