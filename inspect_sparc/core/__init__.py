"""Pure SPaRC puzzle logic, no Inspect: parse a record, read an answer, check rules, search, draw.

Everything here takes a published record or a `Puzzle` and returns plain values, so it can be
tested against the reference and reused outside Inspect (the audit, benchmarks, the generator).
"""
