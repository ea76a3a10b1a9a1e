"""Moved to `inspect_sparc.evals.downloads` (after 0.4.0); this alias keeps old imports working."""

import sys

from inspect_sparc.evals import downloads as _moved

sys.modules[__name__] = _moved
