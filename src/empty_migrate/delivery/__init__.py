"""Delivering a migration as git branches, each with its commit and PR text."""
