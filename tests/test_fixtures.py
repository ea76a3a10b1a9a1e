"""The shipped copy of the test split is the published one: 500 puzzles, levels 86/118/121/86/89."""

from __future__ import annotations

from collections import Counter

from inspect_sparc.core.puzzle.parse import parse_puzzle


def test_test_split_has_the_published_level_counts(sparc_test_split, sparc_by_id):
    puzzles = [parse_puzzle(record) for record in sparc_test_split]
    assert len({p.id for p in puzzles}) == 500
    assert Counter(p.level for p in puzzles) == {1: 86, 2: 118, 3: 121, 4: 86, 5: 89}
    # The 53 sample puzzles are the same records as in the split.
    split_by_id = {record["id"]: record for record in sparc_test_split}
    assert all(split_by_id[pid] == record for pid, record in sparc_by_id.items())
