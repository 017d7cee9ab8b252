"""The codemods, discovered in one place: ``CODEMODS`` maps name to codemod.

Ships inside the installed package as ``empty_migrate.codemods``. Each codemod
lives in its own module named for what it does, with its golden cases in
``golden/<name>/``. None exist yet: they arrive with the codemod issue.
"""

CODEMODS: dict[str, type] = {}
