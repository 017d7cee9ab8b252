"""empty-migrate: one policy for a model's non-answers across inspect_evals."""

__version__ = "0.1.0"
"""The package's version, written only here: pyproject.toml reads it (dynamic)."""

TYPE_CHECKING = False
"""`typing.TYPE_CHECKING` for the modules a one-file lint loads, so that they do
not import `typing` (a few milliseconds of the pre-commit hook's start-up); type
checkers take ``if TYPE_CHECKING:`` as true whatever the name is bound to."""
