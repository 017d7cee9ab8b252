"""The routes a reader sees, named once for the audit's pages and the log's.

Here, below `audit/`, so that the shared page (`page.route_chips`) and the
audit's matrix both read them without an import cycle.
"""

ROUTES = {
    "refusal": "counts as refusal",
    "wrong": "counts as wrong",
    "unscored": "unscored",
    "raised": "raised",
    "judge": "sent to the judge",
    "scored": "scored by the eval",
    "not_measured": "not measured",
}
"""Observed routes, by the name rows carry, with what each means to a reader."""
