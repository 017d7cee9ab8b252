"""The command line: it parses, prints and sets exit codes, nothing else.

`main` builds the parser and dispatches; one module per command family
(`migrate`, `registry`, `audit`, `campaign`), the helpers they share in
`common` (notes, the progress bar, the registry and eval selection) and the
exit codes in `exit_codes`.
"""
