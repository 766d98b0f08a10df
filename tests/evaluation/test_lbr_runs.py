"""``evaluation.lbr_runs``: LBR's chunks over processes."""

from __future__ import annotations

import multiprocessing

from showdown.evaluation.lbr_runs import CHUNK, run_lbr_parallel


def test_no_more_processes_than_chunks_however_many_jobs_are_asked() -> None:
    seen: list[int] = []
    report = run_lbr_parallel("holdem-limit", agent="call", hands=CHUNK // 10, seed=1, jobs=64,
                              progress=lambda _done, _total: seen.append(len(multiprocessing.active_children())))
    assert report.sets[0].hands == CHUNK // 10
    assert seen and max(seen) <= 1  # one chunk: one worker (64 were forked for it)
