"""SPaRC's step-by-step environment, as verifiers loads it: `--env.id inspect-sparc-vf-gym`.

verifiers 0.4 loads an environment id by importing the top-level module of that name (`-` read
as `_`) and taking the one `Env` subclass in its `__all__`; this one-line re-export of
`inspect_sparc.train.vf_gym.SparcGymEnv` is that interface, shipped in the wheel beside
`inspect_sparc` (needs the `train-verifiers` extra).
"""

from inspect_sparc.train.vf_gym import SparcGymEnv

__all__ = ["SparcGymEnv"]
