"""The report's sections, one module each: its table(s), figure(s), text and its `SPEC`
(registration); `contents.SECTIONS` lists them in page order."""
