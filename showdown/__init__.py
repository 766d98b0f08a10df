"""showdown: an ACPC-style poker dealer, agents, solvers and match runner."""

__version__ = "0.1.0"
