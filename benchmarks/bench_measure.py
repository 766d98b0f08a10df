"""Wall time to measure Kuhn's positional edge to +/-0.5 chips per 100 hands (95%).

Two equilibrium agents: position 1 wins 1/18 chip per hand, 5.56 per 100 (Kuhn 1950). How many hands,
and how many seconds end to end (``showdown match``: dealer, agent processes, sockets, logs), each
estimator needs for a 95% interval of half-width 0.5 per 100:

* ``aivat, both known``: both strategies known, every hand's AIVAT value is the exact expected value;
  any run gives the edge exactly (we play ``--exact-hands``, default 1,000, as the consistency check);
* ``aivat, one known``: the second agent is started as an outside program, so AIVAT may use only the
  first agent's strategy (the case AIVAT is made for); a pilot run measures the standard deviation per
  hand, then the number of hands it implies is played and its interval reported;
* ``aivat, one known, duplicate``: the same hands played as two duplicate halves at once (one per
  core); pairing does not reduce a position's luck (both halves deal it the same cards) but the two
  halves run in parallel;
* ``plain``: a pilot run measures the plain standard deviation; the hands needed (about 200,000) are
  projected from it and the timing from the measured rate (``--full`` plays them).

    PYTHONPATH=. python3 benchmarks/bench_measure.py [--pilot 4000] [--exact-hands 1000] [--full]
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from pathlib import Path

from showdown.evaluation.report import MatchReport
from showdown.evaluation.stats import Z95
from showdown.matches.config import AgentSpec, MatchConfig
from showdown.matches.runner import run_match

TARGET = 0.5  # half-width per 100 hands
EDGE = 100.0 / 18.0


def play(
    agents: tuple[AgentSpec, ...], hands: int, estimator: str, seed: int, out: Path, duplicate: bool = False
) -> tuple[MatchReport, float]:
    config = MatchConfig(
        game="kuhn", agents=agents, hands=hands, seed=seed, out=out, estimator=estimator, progress=False, duplicate=duplicate
    )
    start = time.perf_counter()
    report = run_match(config, progress=False, notify=lambda _: None)
    return report, time.perf_counter() - start


def needed(report: MatchReport) -> int:
    """Hands for a 95% half-width of TARGET per 100, from the position's standard error."""
    se = report.position_stats[1].se
    assert se is not None
    sd = se * math.sqrt(report.hands)
    return max(2, math.ceil((Z95 * 100.0 * sd / TARGET) ** 2))


def line(name: str, hands: int, report: MatchReport | None, seconds: float, note: str = "") -> str:
    if report is not None:
        e = report.position_stats[1]
        ci = e.ci95
        shown = f"{e.per100:+.3f} [{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else f"{e.per100:+.3f}"
        contains = "yes" if ci and ci[0] - 1e-9 <= EDGE <= ci[1] + 1e-9 else "no"
    else:
        shown, contains = "(projected)", "-"
    return f"{name:<20} {hands:>9,} {seconds:>9.1f} s   {shown:<34} {contains:<8} {note}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pilot", type=int, default=4000, help="hands of each pilot run")
    parser.add_argument("--exact-hands", type=int, default=1000, help="hands of the both-known AIVAT run")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--full", action="store_true", help="also play the plain estimate's hands (minutes)")
    args = parser.parse_args()
    eq = AgentSpec(name="equilibrium")

    def outside(seed: int) -> AgentSpec:
        """The equilibrium as an outside program: its strategy is not known to the estimator."""
        command = f"{sys.executable} -m showdown agent equilibrium --seed {1000 + seed}"
        return AgentSpec(command=command, label="outside-eq")

    print(f"Kuhn positional edge {EDGE:.4f} per 100 hands to +/-{TARGET} (95%); times include start-up and logs")
    print(f"{'estimator':<20} {'hands':>9} {'wall':>11}   {'position 1 per 100 [95% CI]':<34} {'has 5.56':<8} note")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        report, seconds = play((eq, eq), args.exact_hands, "aivat", args.seed, out)
        print(line("aivat, both known", report.hands, report, seconds, f"exact: {report.hands_per_second:,.0f} hands/s"))

        pilot, pilot_s = play((eq, outside(args.seed)), args.pilot, "aivat", args.seed, out)
        n = needed(pilot)
        report, seconds = play((eq, outside(args.seed + 1)), n, "aivat", args.seed + 1, out)
        hw = report.position_stats[1].half_width
        print(line("aivat, one known", n, report, seconds, f"+/-{hw:.3f}; pilot {args.pilot:,} hands {pilot_s:.1f} s"))
        half = (n + 1) // 2
        report, seconds = play((eq, outside(args.seed + 2)), half, "aivat", args.seed + 2, out, duplicate=True)
        hw = report.position_stats[1].half_width
        print(line("  ... duplicate", report.hands, report, seconds, f"+/-{hw:.3f}; 2 halves of {half:,} at once"))

        pilot, pilot_s = play((eq, eq), args.pilot, "plain", args.seed, out)
        n = needed(pilot)
        if args.full:
            report, seconds = play((eq, eq), n, "plain", args.seed + 1, out)
            print(line("plain", n, report, seconds))
        else:
            rate = pilot.hands_per_second
            print(line("plain", n, None, n / rate, f"at the pilot's {rate:,.0f} hands/s"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
