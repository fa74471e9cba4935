"""A real Mosquitto for the club tests: 127.0.0.1, a free port, a user per table, an ACL."""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

_SBIN = Path("/usr/sbin/mosquitto")
MOSQUITTO = shutil.which("mosquitto") or (str(_SBIN) if _SBIN.exists() else None)
PASSWD = shutil.which("mosquitto_passwd")
HUB_USER, HUB_PASSWORD = "hub", "hub-secret"


def need_mosquitto() -> None:
    if MOSQUITTO is None or PASSWD is None:
        pytest.fail("mosquitto and mosquitto_passwd are needed: run `bash scripts/setup dev` as root "
                    "(apt-get install mosquitto mosquitto-clients)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def password(table: str) -> str:
    return f"pw-{table}"


class Broker:
    """Mosquitto with one user per table (may write only ``table99/<name>/#``) and a hub that reads."""

    def __init__(self, folder: Path, tables: list[str], port: int | None = None) -> None:
        need_mosquitto()
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.tables = tables
        passwd = folder / "passwd"
        passwd.write_text("")
        passwd.chmod(0o600)
        for user, secret in [(HUB_USER, HUB_PASSWORD)] + [(t, password(t)) for t in tables]:
            subprocess.run([PASSWD, "-b", str(passwd), user, secret], check=True, capture_output=True)
        acl = [f"user {HUB_USER}", "topic read table99/#", ""]
        for t in tables:
            acl += [f"user {t}", f"topic write table99/{t}/#", ""]
        (folder / "acl").write_text("\n".join(acl))
        (folder / "acl").chmod(0o600)
        (folder / "data").mkdir(exist_ok=True)
        lines = [f"listener {self.port} 127.0.0.1", "allow_anonymous false",
                 f"password_file {passwd}", f"acl_file {folder / 'acl'}",
                 "persistence true", f"persistence_location {folder / 'data'}/",
                 "max_queued_messages 100000", "log_dest stderr", "log_type error", "log_type warning"]
        if os.getuid() == 0:
            lines.append(f"user {pwd.getpwuid(0).pw_name}")  # else it drops to 'mosquitto', locked out of tmp
        (folder / "mosquitto.conf").write_text("\n".join(lines) + "\n")
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        assert MOSQUITTO is not None
        with open(self.folder / "log", "ab") as log:
            self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.folder / "mosquitto.conf")],
                                            stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto did not start: {(self.folder / 'log').read_text()[-500:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not listen within 10 s")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(10)
        self.process = None

    def options(self, table: str, **changes: object) -> dict[str, object]:
        return {"enabled": True, "host": "127.0.0.1", "port": self.port, "table": table,
                "username": table, "password": password(table), "tls_ca": ""} | changes
