"""A SPaRC puzzle and what is checked against it: records, the parsed puzzle, answers, rules."""
