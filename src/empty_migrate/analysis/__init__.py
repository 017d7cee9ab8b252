"""How the target's code is read: the syntax rules, the workspace and the scan.

Everything that reads the target's Python (the registry's checks, the codemods,
the audit, the pipeline) reads it through `workspace` and asks `syntax`; `scan`,
`flow` and `package_index` are the static analysis over them. `ast` only.
"""
