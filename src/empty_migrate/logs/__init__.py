"""Reading and analysing a user's own Inspect logs: `outcomes` and `audit --log`.

`locations` (local or remote) and `bounds` (what is too large to read) find and
size the logs, `outcomes` classifies each sample's answer, `provenance` names
the eval of a log; `audited` (the model), `replay` (the router run over the
recorded scores, the metrics recomputed) and `render` (text and JSON) are
`audit --log`, and `html` its page, on `page` (the shared look of every page,
with `routes`, the route titles).
"""
