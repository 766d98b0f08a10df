"""The estimators a match's figures can come from (a closed set, named in files and flags)."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["ESTIMATORS", "Estimator"]


class Estimator(StrEnum):
    """``plain``: the chips won; ``duplicate``: paired over the seatings of each deal; ``aivat``: with
    the known strategies' luck terms (Burch et al. 2018); ``chance``: the cards' luck taken out."""

    PLAIN = "plain"
    DUPLICATE = "duplicate"
    AIVAT = "aivat"
    CHANCE = "chance"


ESTIMATORS = tuple(Estimator)
