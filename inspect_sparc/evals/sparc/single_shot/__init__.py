"""Single-shot SPaRC (`sparc`, `sparc_hard`): the paper's protocol, one prompt and one answer."""
