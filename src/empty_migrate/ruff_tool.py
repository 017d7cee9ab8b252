"""How empty-migrate runs ruff, the target's formatter."""

import os
import sys
from functools import cache


@cache
def ruff_command() -> list[str]:
    """The command that runs ruff: its binary, found as ``python -m ruff`` finds it.

    Running the binary directly saves a Python start-up per call.
    """
    try:
        from ruff.__main__ import find_ruff_bin

        return [os.fsdecode(find_ruff_bin())]
    except (ImportError, FileNotFoundError):
        return [sys.executable, "-m", "ruff"]
