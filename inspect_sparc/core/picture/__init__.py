"""SPaRC puzzles drawn: as monospace text and as images (the authors' renderer, answer pictures)."""
