"""`sparc_agent`: the SPaRC environment as Inspect tools, played by any agent with its memory."""

from inspect_sparc.evals.sparc.agent.agent import sparc_react
from inspect_sparc.evals.sparc.agent.scorer import agent_scorer
from inspect_sparc.evals.sparc.agent.tasks import sparc_agent
from inspect_sparc.evals.sparc.agent.tools import move, sparc_tools, start_episode

__all__ = ["agent_scorer", "move", "sparc_agent", "sparc_react", "sparc_tools", "start_episode"]
