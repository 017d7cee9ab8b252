"""The command line: it parses, prints and sets exit codes, nothing else.

`main` builds the parser (`parser`: every command and option, declared with
the standard library only) and dispatches to the module of the command
given, imported when it runs; one module per command family (`migrate`,
`registry`, `audit`, `campaign`, `lint`), the helpers they share in `common`
(notes, the progress bar, the registry and eval selection) and the exit codes
in `exit_codes`.
"""
