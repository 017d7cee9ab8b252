"""What an eval's metrics and epoch reducers read of a score (``ast`` only).

A score the router writes for a non-answer never comes from the eval's own
scorer: it holds the verdict, ``answer`` (the output's text) and only the
metadata the router is told to give it (``copy_metadata``,
``verdict_metadata``). A metric that reads a key of ``score.metadata`` the
eval's scorer puts there (``human_solvable``, copied from the sample) would
count a routed sample in the wrong subset, or drop it. This module finds,
without running anything:

* **Readers**: every ``@metric`` and ``@score_reducer`` factory of the package
  and the function it returns (a nested ``def``, a function of the package,
  or a lambda), and what that function reads of each score: keys of
  ``score.metadata`` (``[k]``, ``.get(k)``, ``k in``), keys of a dict
  ``score.value`` (``as_dict()`` too), ``score.answer``, and keys of
  ``sample_metadata``. The score is followed through names, ``or {}``,
  ``cast``, loops, comprehensions, ``list.append`` and into the functions of
  the same package it is passed to (`FOLLOW_DEPTH` calls deep). A key is a
  string constant, or a name bound to one or to a list of them (a loop over
  ``["target_context_length", "target_position"]``). Dict-form metrics
  (``metrics={"score": [mean()]}``) read their keys of the value, and
  inspect_ai's ``grouped(metric, key)`` reads ``key`` of the *sample*
  metadata (``SampleScore.sample_metadata``), which every score has.
* **Uses**: which readers a ``@scorer(metrics=...)`` lists, and which a
  ``Task(metrics=..., epochs=Epochs(..., reducer))`` lists (for the ``@task``
  holding the call, or for every task when a helper builds it), and the
  package's scorer factories each task's ``Task(scorer=...)`` calls.
* **Sources**: for each ``Score(metadata=...)`` (or ``x.metadata = ...``)
  the package builds, which keys come from the sample's metadata
  (``state.metadata`` whole, or ``{"k": state.metadata["k"]}``) and which the
  scorer computes.

Not followed: a method called on ``self``, a metric class (a
``MetricProtocol`` object rather than a function), metrics or reducers passed
in from outside the package, a key built at run time (an f-string, a
parameter), and containers of scores other than lists (a dict of lists
grouped by a key loses the scores it holds; the key read to group them is
seen).
"""

from empty_migrate.analysis.metadata_sources import metadata_sources
from empty_migrate.analysis.metric_model import (
    ANSWER,
    METADATA,
    SAMPLE_METADATA,
    VALUE,
    FieldRead,
    Key,
    MetadataNeed,
    MetadataSource,
    MetricReport,
    Reader,
)
from empty_migrate.analysis.metric_reads import read_reader, reader_kind
from empty_migrate.analysis.metric_uses import Search, Uses
from empty_migrate.analysis.package_index import FunctionRef, PackageIndex
from empty_migrate.analysis.syntax import Function
from empty_migrate.analysis.workspace import Workspace

__all__ = [
    "ANSWER",
    "METADATA",
    "SAMPLE_METADATA",
    "VALUE",
    "FieldRead",
    "Key",
    "MetadataNeed",
    "MetadataSource",
    "MetricReport",
    "Reader",
    "read_metrics",
]


def read_metrics(workspace: Workspace, eval_name: str) -> MetricReport:
    """Read an eval package's metrics, reducers, their uses and metadata sources."""
    index = PackageIndex(workspace, eval_name)
    report = MetricReport()
    constants: dict[str, dict[str, frozenset[str]]] = {}
    for file in index.files():
        text = index.text(file)
        readers = "metric" in text or "reducer" in text
        sources = "metadata" in text and "Score" in text
        module = index.module(file) if readers or sources else None
        for path, node in module.definitions.items() if module else []:
            if not isinstance(node, Function):
                continue
            kind = reader_kind(node) if readers else None
            if kind is not None:
                ref = FunctionRef(file, path)
                reader = read_reader(index, ref, node, kind, constants)
                report.readers[(file, node.name)] = reader
            if sources:
                report.sources += metadata_sources(file, path, node)
    search = Search()
    for file in index.files():
        text = index.text(file)
        module = index.module(file) if _mentions_uses(text) else None
        if module is not None:
            Uses(index, file, report, search).find(module.tree, text)
    return report


def _mentions_uses(text: str) -> bool:
    return "metrics" in text or "Task(" in text or "epochs" in text
