"""The target repository itself: finding or fetching it, its ruff, its own tests."""
