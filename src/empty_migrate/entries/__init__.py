"""One eval's registry entry: its schema, inherited settings, output locations.

The codemods, the audit and the registry read entries through these modules;
loading and checking the registry's files is `empty_migrate.registry`.
"""
