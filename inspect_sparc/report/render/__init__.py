"""The report's output: the HTML page and its template, the figures, the CSV and LaTeX tables."""
