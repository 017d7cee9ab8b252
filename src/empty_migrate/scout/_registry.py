"""What this package registers with inspect_ai (its ``inspect_ai`` entry point).

inspect_ai loads the entry point whenever it looks up a name of this package,
and may load every package's entry point at once (an eval does, once per
process). The scanner is registered only where Scout already runs: importing
Scout costs about two seconds of CPU, which an eval, or a process without the
``scout`` extra, should not pay. ``scout scan empty_migrate/empty_outcome``
imports Scout before it looks the scanner up, and a Python script imports
`empty_migrate.scout.scanner` itself.
"""

import sys

if "inspect_scout" in sys.modules:
    from empty_migrate.scout import scanner  # noqa: F401  (registers it)
