"""What this package registers with inspect_ai (its ``inspect_ai`` entry point).

inspect_ai loads the entry point whenever it looks up a name of this package,
and may load every package's entry point at once: without the ``scout`` extra
there is nothing to register, and loading must not fail.
"""

from importlib.util import find_spec

if find_spec("inspect_scout") is not None:
    from empty_migrate.scout import scanner  # noqa: F401  (registers it)
