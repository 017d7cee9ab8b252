"""The docs' figure script (docs/figures.py), loaded as a module for the tests."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]


def load():
    """docs/figures.py as a module (it is a script, outside any package)."""
    name = "empty_migrate_docs_figures"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "docs/figures.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


figures = load()
