"""empty-migrate: one policy for a model's non-answers across inspect_evals."""

__version__ = "0.1.0"
