"""A migration run: select, run the codemods per file, format, review, write."""
