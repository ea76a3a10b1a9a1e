"""AlgoPuzzleVQA's pure logic, no Inspect: puzzles, sources, layout, images, prompts, answers.

The Inspect task over it is `inspect_sparc.evals.algopuzzlevqa`; the bundled sample (36
instances with their images, `-T source=sample`) is `data/` here.
"""
