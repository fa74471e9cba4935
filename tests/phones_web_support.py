"""Helpers for the phones' web tests: a server with a paired host, a table, seats joined over HTTP."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from app.games.count99.phones import PhoneTable
from tests.web_support import WebTable, http, same_origin


class PhonesWeb:
    """A WebTable plus a paired host device and helpers to open a table and join its seats."""

    def __init__(self, folder: Path) -> None:
        self.web = WebTable(folder)
        self.port = self.web.port
        code, _seconds = self.web.access.new_code()
        pairing = json.dumps({"code": code, "name": "host"}).encode()
        status, headers, body = http("POST", self.web.base + "/api/pair", pairing, same_origin(self.port))
        assert status == 200, body
        self.host_cookie = headers["Set-Cookie"].split(";", 1)[0]
        self.host_csrf = json.loads(body)["csrf"]
        self._stop = threading.Event()
        # standing in for the table's main thread: runs the commands paired tablets queue
        self._drainer = threading.Thread(target=self._drain, daemon=True)
        self._drainer.start()

    def _drain(self) -> None:
        while not self._stop.wait(0.02):
            self.web.live.drain()

    @property
    def base(self) -> str:
        return self.web.base

    def close(self) -> None:
        self._stop.set()
        self._drainer.join(5)
        self.web.close()

    def post(self, path: str, body: dict[str, Any], cookie: str = "",
             csrf: str = "") -> tuple[int, dict[str, Any], dict[str, str]]:
        headers = same_origin(self.port)
        if cookie:
            headers["Cookie"] = cookie
        if csrf:
            headers["X-CSRF-Token"] = csrf
        status, got, raw = http("POST", self.base + path, json.dumps(body).encode(), headers)
        return status, json.loads(raw or b"{}"), got

    def get(self, path: str, cookie: str = "", **headers: str) -> tuple[int, str]:
        if cookie:
            headers["Cookie"] = cookie
        status, _h, raw = http("GET", self.base + path, None, headers)
        return status, raw.decode("utf-8", "replace")

    def open_table(self, **options: Any) -> PhoneTable:
        status, data, _h = self.post("/api/phones", options, self.host_cookie, self.host_csrf)
        assert status == 200, data
        table = self.web.live.phones.get(data["table"])
        assert table is not None
        return table

    def host(self, table: PhoneTable, **body: Any) -> tuple[int, dict[str, Any]]:
        path = f"/phones/{table.table_id}/api/host"
        status, data, _h = self.post(path, body, self.host_cookie, self.host_csrf)
        return status, data

    def join(self, table: PhoneTable, seat: int, name: str) -> tuple[str, str]:
        """Join ``seat`` with its code; returns (cookie header value, csrf)."""
        code = table.seats[seat].code
        status, data, headers = self.post(f"/phones/{table.table_id}/api/join",
                                          {"seat": seat, "code": code, "name": name})
        assert status == 200, data
        set_cookie = headers["Set-Cookie"]
        assert "HttpOnly" in set_cookie and "SameSite=Strict" in set_cookie
        return set_cookie.split(";", 1)[0], data["csrf"]

    def act(self, table: PhoneTable, cookie: str, csrf: str, **body: Any) -> tuple[int, dict[str, Any]]:
        if body.get("op") == "play":  # as the page does: the play names the view it was chosen from
            body.setdefault("seq", table.seq)
        status, data, _h = self.post(f"/phones/{table.table_id}/api/act", body, cookie, csrf)
        return status, data

    def first_event(self, path: str, cookie: str = "") -> str:
        """The first view message of an event stream."""
        import urllib.request

        request = urllib.request.Request(self.base + path, headers={"Cookie": cookie} if cookie else {})
        with urllib.request.urlopen(request, timeout=10) as response:
            lines = []
            while True:
                line = response.readline().decode()
                lines.append(line)
                if line.startswith("data:"):
                    return line[5:].strip()
