"""From raw sensor scans to debounced holes, a stable-board signal and health. No I/O, no threads.

A scan is one snapshot of every input as an integer bit mask (bit ``i`` set = input ``i`` senses a
magnet). Keeping the scan as one ``int`` makes the per-scan work a handful of bitwise operations,
whatever the number of inputs: that matters on a Pi scanning 100+ times a second in Python.

Debounce is "vertical": an input's debounced value changes only after ``agree`` consecutive scans
agree on the new value (AND of the last scans for ones, OR for zeros). So contact bounce and a peg
carried over the board (each hole touched for a scan or two) never reach the referee.

The stable-board signal: the board is *stable* when the debounced holes have not changed and no
input has been in doubt for ``stable_seconds``. The referee acts on stable boards; the readings in
between carry the doubtful holes as ``unsure`` so it waits instead of guessing.

Health: a hole whose raw value toggles ``flicker_toggles`` times within ``flicker_window``
seconds flickers (loose magnet, failing sensor, noise); a hole that has held a peg for more than
``stuck_seconds`` (0 = never judged) is reported as possibly stuck; :meth:`Scanner.never_changed`
lists holes that have not changed since the start (what a sweep test looks for).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from hardware.wiring import WiringMap


def bits(mask: int) -> list[int]:
    """Indexes of the set bits of ``mask``, lowest first."""
    found: list[int] = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def mask_of(indexes: Iterable[int]) -> int:
    """The bit mask with the bits of ``indexes`` set."""
    mask = 0
    for i in indexes:
        mask |= 1 << i
    return mask


@dataclass(frozen=True)
class ScanSettings:
    """How a scanner judges its inputs; the defaults suit hall sensors scanned at 100-200 Hz."""

    agree: int = 3  # consecutive agreeing scans before a change counts (3 scans = 25 ms at 120 Hz)
    stable_seconds: float = 0.3
    flicker_toggles: int = 16  # raw toggles ...
    flicker_window: float = 3.0  # ... within this many seconds make a hole "flickering"
    stuck_seconds: float = 0.0  # 0: never call a long-held peg stuck

    def __post_init__(self) -> None:
        if self.agree < 1:
            raise ValueError("agree must be at least 1 scan")
        if self.flicker_toggles < 2:
            raise ValueError("flicker_toggles must be at least 2")


@dataclass(frozen=True)
class ScanOutcome:
    """What one scan changed: the caller publishes a reading when ``changed`` or ``became_stable``."""

    changed: bool  # debounced holes or doubtful holes differ from the previous scan
    became_stable: bool  # the board has just been quiet for stable_seconds
    health_changed: bool  # the set of flickering or stuck holes changed


class Scanner:
    """Debounce, stability and health for one board; feed it every scan with its time."""

    def __init__(self, wiring: WiringMap, settings: ScanSettings | None = None) -> None:
        self.wiring = wiring
        self.settings = settings or ScanSettings()
        self._history: deque[int] = deque(maxlen=self.settings.agree)
        self._raw = 0
        self._debounced = 0
        self._unsure = 0
        self._first = True
        self._quiet_since = 0.0
        self._stable = False
        self._changed_ever = 0
        self._toggles: dict[int, deque[float]] = {}
        self._active_since: dict[int, float] = {}
        self._flickering: frozenset[int] = frozenset()
        self._stuck: frozenset[int] = frozenset()
        self.scans = 0

    # -- feeding ----------------------------------------------------------------------------
    def feed(self, raw: int, now: float) -> ScanOutcome:
        self.scans += 1
        history = self._history
        history.append(raw)
        toggled = 0 if self._first else raw ^ self._raw
        self._raw = raw
        if self._first:  # the first scan is believed as it is: nothing to debounce against yet
            self._first = False
            self._debounced = raw
            self._quiet_since = now
            history.clear()
            history.extend([raw] * self.settings.agree)
            for i in bits(raw):
                self._active_since[i] = now
            return ScanOutcome(changed=True, became_stable=False, health_changed=False)
        all_ones = -1  # bits set in every remembered scan
        any_one = 0  # bits set in any remembered scan
        for past in history:
            all_ones &= past
            any_one |= past
        before = self._debounced
        debounced = (before | all_ones) & any_one  # set if all agree on 1, cleared if all on 0
        unsure = all_ones ^ any_one  # the scans disagree: in doubt
        changed_now = debounced ^ before
        changed = bool(changed_now) or unsure != self._unsure
        self._debounced = debounced
        self._unsure = unsure
        if changed_now:
            self._changed_ever |= changed_now
            for i in bits(changed_now):
                if debounced >> i & 1:
                    self._active_since[i] = now
                else:
                    self._active_since.pop(i, None)
        if changed:
            self._quiet_since = now
            self._stable = False
        became_stable = False
        if not self._stable and not unsure and now - self._quiet_since >= self.settings.stable_seconds:
            self._stable = became_stable = True
        health_changed = self._judge_health(toggled, now)
        return ScanOutcome(changed, became_stable, health_changed)

    def _judge_health(self, toggled: int, now: float) -> bool:
        s = self.settings
        for i in bits(toggled):
            self._toggles.setdefault(i, deque(maxlen=s.flicker_toggles)).append(now)
        flickering = set()
        for i, times in list(self._toggles.items()):
            while times and now - times[0] > s.flicker_window:
                times.popleft()
            if not times:
                del self._toggles[i]
            elif len(times) >= s.flicker_toggles:
                flickering.add(i)
        stuck: set[int] = set()
        if s.stuck_seconds > 0:
            stuck = {i for i, since in self._active_since.items() if now - since >= s.stuck_seconds}
        new_flicker = self.wiring.holes_of(flickering)
        new_stuck = self.wiring.holes_of(stuck)
        changed = new_flicker != self._flickering or new_stuck != self._stuck
        self._flickering, self._stuck = new_flicker, new_stuck
        return changed

    # -- what it knows --------------------------------------------------------------------
    @property
    def stable(self) -> bool:
        return self._stable

    @property
    def raw_inputs(self) -> frozenset[int]:
        return frozenset(bits(self._raw))

    @property
    def active_inputs(self) -> frozenset[int]:
        """Debounced active inputs, mapped or not (what the teach step watches)."""
        return frozenset(bits(self._debounced))

    @property
    def occupied(self) -> frozenset[int]:
        return self.wiring.holes_of(bits(self._debounced))

    @property
    def unsure(self) -> frozenset[int]:
        return self.wiring.holes_of(bits(self._unsure))

    @property
    def flickering(self) -> frozenset[int]:
        return self._flickering

    @property
    def stuck(self) -> frozenset[int]:
        return self._stuck

    def never_changed(self) -> tuple[int, ...]:
        """Holes whose debounced value has not changed since the first scan."""
        changed = self.wiring.holes_of(bits(self._changed_ever))
        return tuple(h for h in sorted(self.wiring.known_holes()) if h not in changed)
