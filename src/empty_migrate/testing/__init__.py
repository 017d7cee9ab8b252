"""Test helpers: provider-shaped model outputs and task states for routed scorers."""
