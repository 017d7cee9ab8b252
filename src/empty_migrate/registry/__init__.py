"""The declarative registry of evals: what each is and how its non-answers score."""

from pathlib import Path

EVALS_DIR = Path(__file__).parent / "evals"
"""This package's registry: one ``<eval>.yaml`` per eval."""
