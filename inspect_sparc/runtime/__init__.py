"""What the package does around its logic at run time: worker processes and progress display.

The bottom layer: it imports nothing else of the package (and never Inspect), so the pure
`core` can hand it a job list or a count without taking on processes or terminals itself.
"""
