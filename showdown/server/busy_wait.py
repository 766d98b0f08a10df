"""Keep the dealer's core awake for a reply that is on its way, and read it without the event loop."""

from __future__ import annotations

import os
import select
import time
from typing import Any

from showdown.server.connection import SeatConnection

__all__ = ["BusyWait", "SpinTrial"]


class SpinTrial:
    """Whether polling for replies pays on this machine now, measured rather than assumed.

    Polling saves a sleeping core's wake-up, but on a machine whose cores are shared (a loaded
    virtual machine, the agents and the dealer on two cores) it can slow the agents it waits for:
    measured on a loaded 2-core machine, Kuhn at 0.90x the hands/s of not polling, at 1.1x the CPU.
    So the dealer tries both, as an A/B test on itself: blocks of ``BLOCK`` waits for a reply, polling
    and not in turn (``TRIAL`` blocks of each), and polls afterwards only if the median wait of its
    polling blocks was at least ``GAIN`` shorter; ``KEEP`` blocks later it tries again, since load
    comes and goes. A wait is from the moment the dealer is ready for the reply to the moment it has
    it (the agent's thinking included: the same in both kinds of blocks, on average). While polling
    does not pay, the next ``KEEP`` blocks of replies are ``resting``: the driver counts them down
    and neither polls nor times them (no call at all per reply), then a new trial starts.
    """

    BLOCK = 64
    TRIAL = 2
    GAIN = 0.2
    KEEP = 64

    def __init__(self) -> None:
        self.polling = True  # the mode of the current block
        self.pays: bool | None = None  # the last trial's verdict (None: none finished yet)
        self.trials = 0
        self._waits: list[float] = []
        self._medians: dict[bool, list[float]] = {True: [], False: []}
        self._blocks_left = 2 * self.TRIAL  # of the running trial, or of keeping its verdict
        self._trying = True
        self.resting = 0  # replies left to let through untimed and unpolled (counted down by the driver)

    def record(self, wait: float) -> None:
        """One wait for a reply (seconds), in the current block's mode."""
        waits = self._waits
        waits.append(wait)
        if len(waits) < self.BLOCK:
            return
        waits.sort()
        self._medians[self.polling].append(waits[len(waits) // 2])
        self._waits = []
        self._blocks_left -= 1
        if self._trying:
            if self._blocks_left:
                self.polling = not self.polling
                return
            polled, slept = (sorted(self._medians[m])[self.TRIAL // 2] for m in (True, False))
            self.pays = polled <= (1 - self.GAIN) * slept
            self.trials += 1
            if self.pays:
                self._trying, self._blocks_left, self.polling = False, self.KEEP, True
            else:
                self.resting = self.KEEP * self.BLOCK
                self._restart()
        elif not self._blocks_left:
            self._restart()

    def _restart(self) -> None:
        self._medians = {True: [], False: []}
        self._trying, self._blocks_left, self.polling = True, 2 * self.TRIAL, True


class BusyWait:
    """Wait for the awaited reply by reading the seat's socket briefly before the event loop sleeps.

    On small virtual machines a core that went to sleep takes tens of microseconds to wake up:
    much of a fast agent's round trip (measured: about +20% hands/s in Kuhn, +50% in no-limit
    hold'em). So after the lines are out and the logs written, the dealer keeps its core awake for
    up to ``budget_us`` while the reply is on its way. ``take`` reads the reply itself (the bytes the
    event loop would have read, in order) so the dealer answers it at once, without a pass through
    the loop; otherwise the loop finds the socket ready and reads it. Every microsecond counts
    twice: the agent's core sleeps deeper the longer it waits (measured on loopback TCP: 5 us more
    before a write made the round trip 14 us longer). Polling costs CPU only while a reply is due
    and stops after ``MISSES`` windows in a row pass without one (slow agents, a busy machine), for
    ``PAUSE`` decisions. Useless, and so never used, with a single CPU.

    It also never takes a core another process wants: with ``yield_to_load`` (the server's way) it
    polls only while the machine's run queue (``/proc/loadavg``: tasks running or ready to run, the
    dealer and the thinking agent included) is no longer than its number of CPUs, looked at every
    ``LOAD_CHECK`` seconds, so on a machine whose cores are all wanted (other matches, a build, a
    ``--jobs 2`` tournament on 2 cores) the dealer sleeps in the event loop like any other program.
    """

    MISSES = 8
    PAUSE = 256
    READ_SIZE = 1 << 12
    LOAD_CHECK = 0.05
    RUN_QUEUE = "/proc/loadavg"

    def __init__(self, budget_us: int, *, yield_to_load: bool = True, trial: SpinTrial | None = None) -> None:
        self.budget = budget_us * 1e-6
        self.trial = trial  # polls only while it pays (None: always, within the rules below)
        self._awaited: SeatConnection | None = None  # the seat whose reply is being timed for the trial
        self._since = 0.0
        self.misses = 0
        self.paused = 0
        self.hits = 0
        self.taken = 0  # replies read here rather than by the event loop
        self.yielded = 0  # windows not polled because every core was wanted
        self.yield_to_load = yield_to_load and os.path.exists(self.RUN_QUEUE)
        self._cpus = self._cpu_count()
        self._load_checked = -1.0
        self._cores_free = True

    @staticmethod
    def _cpu_count() -> int:
        try:
            return len(os.sched_getaffinity(0))
        except AttributeError:  # not Linux
            return os.cpu_count() or 1

    @staticmethod
    def useful() -> bool:
        """Only with two CPUs or more, where the agent runs while the dealer polls."""
        return BusyWait._cpu_count() >= 2 and hasattr(select, "poll")

    def machine_has_a_free_core(self) -> bool:
        """True unless the run queue (read at most every ``LOAD_CHECK`` s) is longer than the CPUs."""
        if not self.yield_to_load:
            return True
        now = time.monotonic()
        if now - self._load_checked >= self.LOAD_CHECK:
            self._load_checked = now
            try:
                with open(self.RUN_QUEUE, "rb") as f:
                    running = int(f.read().split()[3].split(b"/")[0])
            except (OSError, ValueError, IndexError):
                running = 0
            self._cores_free = running <= self._cpus
        return self._cores_free

    def take(self, conn: SeatConnection) -> bytes | None:
        """The bytes of the reply, read from ``conn``'s socket, if they come within the budget; None
        if they do not, or the connection is closing, failed or ended (the event loop reports that)."""
        transport = conn.transport
        if transport is None or transport.is_closing() or self._poller(conn) is None or conn.fd < 0:
            return None
        if not self.wait(conn):
            return None
        try:
            data = os.read(conn.fd, self.READ_SIZE)
        except OSError:  # nothing after all, or an error the event loop will report
            return None
        if not data:  # the end of the stream, also left for the event loop
            return None
        self.taken += 1
        return data

    def arrived(self, conn: SeatConnection) -> None:
        """Bytes came from ``conn`` through the event loop: the end of a timed wait if it was awaited."""
        if conn is self._awaited and self.trial is not None:
            self.trial.record(time.perf_counter() - self._since)
            self._awaited = None

    def wait(self, conn: SeatConnection | None) -> bool:
        """True once ``conn``'s socket has something to read, False when the budget is spent first."""
        trial = self.trial
        if trial is not None and conn is not None:
            self._awaited, self._since = conn, time.perf_counter()
            if not trial.polling:
                return False
        if self.paused:
            self.paused -= 1
            return False
        if not self.machine_has_a_free_core():
            self.yielded += 1
            return False
        poller = self._poller(conn) if conn is not None else None
        if poller is None:
            return False
        poll = poller.poll
        clock = time.perf_counter
        end = clock() + self.budget
        while not poll(0):
            if clock() > end:
                self._missed()
                return False
        self.misses = 0
        self.hits += 1
        if trial is not None:
            trial.record(clock() - self._since)
            self._awaited = None
        return True

    def _missed(self) -> None:
        self.misses += 1
        if self.misses >= self.MISSES:
            self.misses = 0
            self.paused = self.PAUSE

    @staticmethod
    def _poller(conn: SeatConnection) -> Any:
        """``conn``'s poll object, made on first use together with ``conn.fd`` (left at -1 for a
        blocking socket, which ``take`` must never read); None while it has no socket."""
        poller = conn.poller
        if poller is None:
            sock = conn.transport.get_extra_info("socket") if conn.transport is not None else None
            if sock is None:
                return None
            fd = sock.fileno()
            poller = conn.poller = select.poll()
            poller.register(fd, select.POLLIN)
            conn.fd = -1 if os.get_blocking(fd) else fd
        return poller
