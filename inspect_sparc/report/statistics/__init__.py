"""Every interval and test of the report (scipy underneath), each with its coverage test."""
