"""Who may look and who may write: the view token, pairing codes and paired devices.

* The **view token** (128 random bits, URL-safe) is part of every page's address and in the QR code
  on the table's screen. It is kept in the data directory (mode 0600) so a TV's page survives a
  restart of the Pi; ``rotate_token`` makes a new one (every old address stops working).
* A **pairing code** (six digits) is made on request on the table's screen, lives two minutes, is
  used once, and dies after ``MAX_TRIES`` wrong guesses in a row (a new one must be asked for at
  the table), so a guesser gets at most 5 tries per code out of a million codes, and
  ``MAX_FAILURES_PER_MINUTE`` wrong guesses from one client address within a minute lock pairing
  for that address for a minute (per address, so a stranger with the view token cannot keep pairing
  shut for the table's own tablet; the per-code burn still holds for everyone).
* A **paired device** holds a random secret in an HttpOnly, SameSite=Strict cookie; only its
  SHA-256 is stored. Each device also has a CSRF token that its pages send in a header with every
  change. The table's screen lists devices and revokes them.

Thread-safe (one lock): the web server's loop and Kivy's main thread both call in. The clock is a
parameter so tests age codes without sleeping.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)
CODE_SECONDS = 120.0
MAX_TRIES = 5  # wrong guesses before the current code is burnt
MAX_FAILURES_PER_MINUTE = 10  # wrong guesses (any code) before pairing locks for a minute
MAX_DEVICES = 16
COOKIE = "t99device"


class PairingError(Exception):
    """A pairing attempt refused; ``str()`` is the sentence for the page."""


@dataclass
class Device:
    id: str
    name: str
    secret_hash: str
    csrf: str
    created: float


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class Access:
    def __init__(self, folder: Path | None, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        self.folder = folder
        self.clock, self.wall = clock, wall
        self._lock = threading.Lock()
        self.token = self._load_token()
        self.devices: dict[str, Device] = self._load_devices()
        self._code: str | None = None
        self._code_expires = 0.0
        self._code_tries = 0
        self._failures: dict[str, list[float]] = {}  # client address -> times of its wrong guesses
        self._locked_until: dict[str, float] = {}

    # -- the view token --------------------------------------------------------------------------
    def _path(self, name: str) -> Path | None:
        return None if self.folder is None else self.folder / name

    def _write_private(self, name: str, text: str) -> None:
        path = self._path(name)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            fd = os.open(tmp, os.O_CREAT | os.O_TRUNC | os.O_WRONLY, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except OSError as exc:  # a read-only disk: the token holds until the app stops
            log.error("cannot save %s: %s", path, exc)

    def _load_token(self) -> str:
        path = self._path("web-token")
        if path is not None:
            try:
                token = path.read_text(encoding="utf-8").strip()
                if len(token) >= 20 and token.replace("-", "").replace("_", "").isalnum():
                    return token
            except (OSError, UnicodeDecodeError):
                pass
        token = secrets.token_urlsafe(16)
        self._write_private("web-token", token)
        return token

    def rotate_token(self) -> str:
        with self._lock:
            self.token = secrets.token_urlsafe(16)
            self._write_private("web-token", self.token)
            return self.token

    def token_ok(self, candidate: str) -> bool:
        return hmac.compare_digest(candidate.encode(), self.token.encode())

    # -- paired devices --------------------------------------------------------------------------
    def _load_devices(self) -> dict[str, Device]:
        path = self._path("web-devices.json")
        if path is None or not path.exists():
            return {}
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return {d["id"]: Device(str(d["id"]), str(d["name"]), str(d["secret_hash"]), str(d["csrf"]),
                                    float(d["created"])) for d in data}
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.error("ignoring the paired devices in %s (%s): pair them again", path, exc)
            return {}

    def _save_devices(self) -> None:
        self._write_private("web-devices.json", json.dumps([d.__dict__ for d in self.devices.values()]))

    def device_for(self, cookie: str | None) -> Device | None:
        if not cookie or "." not in cookie or len(cookie) > 200:
            return None
        device_id, secret = cookie.split(".", 1)
        with self._lock:
            device = self.devices.get(device_id)
        if device is None or not hmac.compare_digest(device.secret_hash, _digest(secret)):
            return None
        return device

    def revoke(self, device_id: str) -> bool:
        with self._lock:
            gone = self.devices.pop(device_id, None) is not None
            if gone:
                self._save_devices()
        return gone

    def device_list(self) -> list[Device]:
        with self._lock:
            return sorted(self.devices.values(), key=lambda d: d.created)

    # -- pairing codes ---------------------------------------------------------------------------
    def new_code(self) -> tuple[str, float]:
        """A fresh code (the old one dies); returns it and its lifetime in seconds."""
        with self._lock:
            self._code = f"{secrets.randbelow(1_000_000):06d}"
            self._code_expires = self.clock() + CODE_SECONDS
            self._code_tries = 0
            return self._code, CODE_SECONDS

    def code_left(self) -> tuple[str, float] | None:
        """The live code and its seconds left, or None."""
        with self._lock:
            if self._code is None:
                return None
            left = self._code_expires - self.clock()
            if left <= 0:
                self._code = None
                return None
            return self._code, left

    def cancel_code(self) -> None:
        with self._lock:
            self._code = None

    def pair(self, code: object, name: object, client: str = "?",
             unnamed: str = "tablet") -> tuple[Device, str]:
        """Check ``code`` from ``client`` (its address); returns the new device and the cookie value,
        or raises PairingError. ``unnamed``: the device's name when the user typed none, in the
        pairing page's language (it is shown back as "Paired as ...")."""
        now = self.clock()
        with self._lock:
            for who in list(self._failures):  # forget old guesses (bounded: entries live a minute)
                kept = [t for t in self._failures[who] if now - t < 60]
                if kept:
                    self._failures[who] = kept
                else:
                    del self._failures[who]
            for who in [w for w, until in self._locked_until.items() if until <= now]:
                del self._locked_until[who]
            if now < self._locked_until.get(client, 0.0):
                raise PairingError("too many wrong codes: wait a minute, then ask the table for a new code")
            # ASCII digits only: str.isdigit() also takes "²" and "١٢٣٤٥٦", which compare_digest refuses
            if not isinstance(code, str) or not re.fullmatch(r"[0-9]{6}", code):
                raise PairingError("the code is six digits")
            if self._code is None or now >= self._code_expires:
                self._code = None
                raise PairingError("no pairing code is open: ask the table's screen for a new one")
            if not hmac.compare_digest(code, self._code):
                self._code_tries += 1
                failures = self._failures.setdefault(client, [])
                failures.append(now)
                if self._code_tries >= MAX_TRIES:
                    self._code = None  # burnt: a guesser must come back to the table
                if len(failures) >= MAX_FAILURES_PER_MINUTE:
                    self._locked_until[client] = now + 60
                raise PairingError("wrong code")
            if len(self.devices) >= MAX_DEVICES:
                raise PairingError(f"already {MAX_DEVICES} paired devices: revoke one at the table first")
            self._code = None  # used once
            label = name.strip()[:40] if isinstance(name, str) and name.strip() else unnamed
            label = "".join(ch for ch in label if ch.isprintable())
            secret = secrets.token_urlsafe(24)
            device = Device(secrets.token_hex(6), label, _digest(secret), secrets.token_urlsafe(18),
                            self.wall())
            self.devices[device.id] = device
            self._save_devices()
        return device, f"{device.id}.{secret}"
