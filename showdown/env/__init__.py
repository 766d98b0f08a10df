"""showdown as a reinforcement-learning environment (the ``env`` extra: PettingZoo and Gymnasium).

``env(game=...)`` / ``raw_env(...)``: the PettingZoo AEC environment; ``SingleAgentEnv``: a Gymnasium
environment where showdown agents hold the other seats; ``PolicyAgent`` / ``run_policy``: a policy
trained in either, seated in a real match. The observation and action encoding is in ``encoding``.
"""

from showdown.env.aec import env, raw_env
from showdown.env.encoding import ActionMap, Encoder
from showdown.env.single import PolicyAgent, SingleAgentEnv, run_policy

__all__ = ["ActionMap", "Encoder", "PolicyAgent", "SingleAgentEnv", "env", "raw_env", "run_policy"]
