"""inspect-sparc: SPaRC and AlgoPuzzleVQA as Inspect AI tasks.

Importing the package is cheap: the Inspect tasks live in one subpackage per protocol under
`inspect_sparc.sparc` (and `inspect_sparc.algopuzzlevqa`) and are registered through the
`_registry` entry point.
"""

__version__ = "0.3.0"
