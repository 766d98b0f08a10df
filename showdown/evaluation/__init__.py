"""The numbers: statistics and intervals, estimators, confidence sequences, ratings and rankings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from showdown._lazy import lazy_exports

if TYPE_CHECKING:
    from showdown.evaluation.aivat import AivatEstimator
    from showdown.evaluation.analysis_output import format_analysis
    from showdown.evaluation.analyze import Analysis
    from showdown.evaluation.confidence import ConfidenceSequence
    from showdown.evaluation.estimators import Estimator
    from showdown.evaluation.exact_values import ExactValues
    from showdown.evaluation.lbr import LocalBestResponse
    from showdown.evaluation.lbr_runs import LBRReport, LBRResult, run_lbr
    from showdown.evaluation.planning import Plan, make_plan
    from showdown.evaluation.ratings import Ratings, bradley_terry
    from showdown.evaluation.stats import Difference, Estimate, MatchStats, Welford
    from showdown.evaluation.verify import VerifyReport, verify_log

__all__ = [
    "AivatEstimator",
    "Analysis",
    "ConfidenceSequence",
    "Difference",
    "Estimate",
    "Estimator",
    "ExactValues",
    "LBRReport",
    "LBRResult",
    "LocalBestResponse",
    "MatchStats",
    "Plan",
    "Ratings",
    "VerifyReport",
    "Welford",
    "bradley_terry",
    "format_analysis",
    "make_plan",
    "run_lbr",
    "verify_log",
]

__getattr__, __dir__ = lazy_exports(__name__, __file__)
