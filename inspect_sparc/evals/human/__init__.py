"""A human baseline: people answer the puzzles of any task on a local web page (`human`)."""
