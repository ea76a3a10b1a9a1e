"""Fresh SPaRC puzzles: the generator and the guards that keep the test split out of them."""
