"""Moved to `inspect_sparc.evals.ordering` (after 0.4.0); this alias keeps old imports working."""

import sys

from inspect_sparc.evals import ordering as _moved

sys.modules[__name__] = _moved
