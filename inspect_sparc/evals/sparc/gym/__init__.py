"""Step-by-step SPaRC (`sparc_gym`, the Spatial-Gym protocol): one observation, one move a call."""
