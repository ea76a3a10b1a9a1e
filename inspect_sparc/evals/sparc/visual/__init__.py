"""Visual SPaRC (`sparc_visual`): the puzzle as the authors' rendered image, one answer."""
