"""Random numbers drawn per hand, so that a resumed match plays as if it had never stopped.

An agent that kept one generator for the whole match would, restarted at hand 500 of a killed
match, draw hand 500's numbers from the generator's start, not from where it was: the logs would
differ from the line after the resume. ``HandRandom.at(hand)`` instead starts hand ``h``'s numbers
from a state that is a function of the agent's seed and ``h`` only (SplitMix64, Steele, Lea and
Flood 2014: the seed and the hand number are mixed into the state, and each draw mixes the state
advanced by a constant), so the k-th draw of hand h is the same whenever and wherever hand h is
played. Every stochastic built-in agent draws through it, with ``view.hand``; an outside bot gets
the same guarantee by doing the same with its own seed and the hand number of each MATCHSTATE line.

It is pure Python and cheap (a draw costs about a microsecond, starting a hand two); it offers the
few calls the agents make: ``random()``, ``randrange(n)``, ``randint(a, b)`` and ``index(probs)``.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

__all__ = ["HandRandom", "hand_state"]

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_TO_UNIT = 1.0 / (1 << 53)


def _mix(z: int) -> int:
    """SplitMix64's finaliser: a bijection of 64-bit integers that scatters every input bit."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def hand_state(seed: int, hand: int) -> int:
    """The generator's state at the start of ``hand`` for an agent seeded ``seed``."""
    return _mix((_mix((seed & _MASK) + _GOLDEN) ^ (hand & _MASK)) + _GOLDEN)


class HandRandom:
    """A seeded generator whose numbers restart at each hand from (seed, hand): call ``at(view.hand)``
    before drawing (it returns the generator). ``seed=None`` draws a seed from the system."""

    __slots__ = ("seed", "hand", "_state")

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed if seed is not None else secrets.randbits(64)
        self.hand = 0
        self._state = hand_state(self.seed, 0)

    def at(self, hand: int) -> HandRandom:
        """This generator, at hand ``hand``'s numbers (from their start when the hand changes)."""
        if hand != self.hand:
            self.hand = hand
            self._state = hand_state(self.seed, hand)
        return self

    def getstate(self) -> tuple[int, int]:
        """Where the generator is (as ``random.Random.getstate``): for ``setstate`` to return to."""
        return self.hand, self._state

    def setstate(self, state: tuple[int, int]) -> None:
        self.hand, self._state = state

    def _next(self) -> int:
        self._state = (self._state + _GOLDEN) & _MASK
        return _mix(self._state)

    def random(self) -> float:
        """A float uniform in [0, 1) (53 bits)."""
        return (self._next() >> 11) * _TO_UNIT

    def randrange(self, n: int) -> int:
        """An integer uniform in [0, n) (``n`` at most 2**32: the bias is then below 2**-32)."""
        if not 0 < n <= 1 << 32:
            raise ValueError(f"randrange needs 0 < n <= 2**32, got {n}")
        return ((self._next() >> 32) * n) >> 32

    def randint(self, a: int, b: int) -> int:
        """An integer uniform in [a, b]."""
        return a + self.randrange(b - a + 1)

    def index(self, probs: Sequence[float]) -> int:
        """An index drawn with the given probabilities (summing to 1; the last with mass when
        rounding leaves the draw just above the total)."""
        u = self.random()
        total = 0.0
        last = 0
        for i, p in enumerate(probs):
            if p > 0.0:
                last = i
                total += p
                if u < total:
                    return i
        return last
