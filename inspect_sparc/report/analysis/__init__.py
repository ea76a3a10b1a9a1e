"""The report's computations: pure functions from the run and sample frames (`read/`) to the
tables the sections show, one module per question (results, paired comparisons, the
fresh-puzzle gap, unpaired comparisons, protocol deltas, tokens). Nothing here draws, writes or
words a page; a section that needs another section's table reads it from here."""
