"""Citations by symbol on the real releases: none is stale once a tree is migrated.

The registry's citations were made from 0.26.0's lines; 0.28.0 moved many of
those lines, and none of the symbols. Checked on both migrated trees: the
written entries (as ``registry validate`` reads them once it loads the
target's entries, and as lint does) and the changelog text the migration wrote.
"""

from pathlib import Path

import pytest

from empty_migrate.analysis.citations import line_citations, symbol_citations
from empty_migrate.cli.main import main
from empty_migrate.entries.schema import prose
from empty_migrate.registry.drift import citation_problem, stale_citations
from empty_migrate.registry.target import registry_of, target_entry_files

pytestmark = pytest.mark.corpus

TREES = {
    "0.26.0": ("inspect_evals_tree", "migrated_tree"),
    "0.28.0": ("next_release_tree", "next_release_migrated"),
}


def trees(request, release: str) -> tuple[Path, Path]:
    """The release as fetched, and the copy of it migrated with --all."""
    pristine, migrated = (request.getfixturevalue(name) for name in TREES[release])
    return pristine, migrated[0] if isinstance(migrated, tuple) else migrated


@pytest.mark.parametrize("release", TREES)
def test_validate_finds_no_stale_citation_in_the_written_entries(
    request, release, capsys
):
    _, root = trees(request, release)
    assert main(["registry", "validate", "--repo", str(root)]) == 0
    written = target_entry_files(root)
    assert len(written) > 100  # every migrated eval keeps its entry
    registry = registry_of(root)
    cited = [
        citation
        for name in written
        for _, text in prose(registry.get(name))
        for citation in symbol_citations(text)
    ]
    assert len(cited) > 300
    stale = [
        problem
        for name in written
        for problem in stale_citations(registry.get(name), written[name], root)
    ]
    assert stale == []


@pytest.mark.parametrize("release", TREES)
def test_every_citation_the_changelogs_gained_resolves(request, release):
    pristine, root = trees(request, release)
    added = "\n".join(_added_changelog_lines(pristine, root))
    assert added.count("Before this change: ") > 100
    cited = symbol_citations(added)
    assert len(cited) > 150
    assert [(str(c), citation_problem(c, root)) for c in cited] == [
        (str(c), None) for c in cited
    ]
    assert line_citations(added) == []


def _added_changelog_lines(pristine: Path, root: Path) -> list[str]:
    """The lines the migration wrote into each eval's README and the fragments."""
    added = []
    for readme in sorted(root.glob("src/inspect_evals/*/README.md")):
        before = pristine / readme.relative_to(root)
        old = set(before.read_text().splitlines()) if before.exists() else set()
        added += [line for line in readme.read_text().splitlines() if line not in old]
    for fragment in sorted(root.glob("changelog.d/*.md")):
        if not (pristine / fragment.relative_to(root)).exists():
            added += fragment.read_text().splitlines()
    return added
