"""What every codemod builds with: its base classes, its declaration, the helpers.

The helpers cut, edit and write code; nothing here names a particular codemod.
"""
