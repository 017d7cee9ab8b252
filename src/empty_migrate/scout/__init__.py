"""`empty_outcome`: the outcomes of logged samples, as an Inspect Scout scanner.

Installed with ``pip install "empty-migrate[scout]"``; Scout finds it through
this package's ``inspect_ai`` entry point, as ``empty_migrate/empty_outcome``.
"""
