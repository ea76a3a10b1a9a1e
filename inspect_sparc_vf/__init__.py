"""SPaRC's taskset, as verifiers loads it: `--taskset.id inspect-sparc-vf`.

verifiers 0.4 loads a taskset id by importing the top-level module of that name (`-` read as
`_`) and taking the one `Taskset` subclass in its `__all__`; this one-line re-export of
`inspect_sparc.train.vf.SparcTaskset` is that interface, shipped in the wheel beside
`inspect_sparc` (needs the `train-verifiers` extra). It exports the taskset's harness as well
(`SparcChatHarness`, tool-less chat): verifiers runs a taskset's own harness by default, and
otherwise its `bash` harness, which executes code.
"""

from inspect_sparc.train.vf import SparcChatHarness, SparcTaskset

__all__ = ["SparcChatHarness", "SparcTaskset"]
