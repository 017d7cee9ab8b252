"""The declarative registry of evals: what each is and how its non-answers score."""
