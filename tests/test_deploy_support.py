"""Stand-ins for the system commands deploy/install.sh runs, for its scratch-root mode.

One multi-call program (like busybox): the installer finds ``apt-get``, ``useradd``, ``python3``...
in ``$TABLE99_STUBS`` and runs them instead of the real ones. They keep the pretend system's
state (installed packages, users and their groups) in a JSON file *outside* the scratch root, so
a second installer run sees what the first did, just as on a real Pi, and they log every call so
the tests can say which commands a run used.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

COMMANDS = (
    "apt-get", "dpkg-query", "getent", "id", "useradd", "usermod", "userdel", "gpasswd",
    "systemctl", "udevadm", "chown", "python3", "apt-cache", "groupdel",
)
SYSTEM_NUMPY = "1.24.2"

VENV_PYTHON = """#!/bin/sh
# the scratch venv's python: logs what pip was asked to do
exec "{program}" venv-python "$@"
"""
# Commands that change the pretend system: $TABLE99_STUB_KILL_AT=N kills the installer (SIGKILL to
# its process group) at the Nth of them, before it acts; $TABLE99_STUB_FAIL=NAME makes NAME fail.
CHANGING = ("apt-get", "useradd", "usermod", "userdel", "groupdel", "gpasswd", "chown", "udevadm",
            "venv-python")


RASPBERRY_PI_OS_GROUPS = ("gpio", "dialout", "video", "render", "input", "audio")


def make_stubs(folder: Path, *, groups: tuple[str, ...] = RASPBERRY_PI_OS_GROUPS,
               users: dict[str, list[str]] | None = None, archive: list[str] | None = None) -> Path:
    """Write the stub commands into ``folder``; return it (the value for $TABLE99_STUBS).

    ``archive``: the packages apt can install (None: any)."""
    folder.mkdir(parents=True, exist_ok=True)
    state = {"packages": [], "groups": list(groups), "users": users or {}, "archive": archive,
             "changes": 0}
    (folder / "state.json").write_text(json.dumps(state))
    program = folder / "stub.py"
    program.write_text(f"#!{sys.executable} -S\n" + Path(__file__).read_text())
    program.chmod(0o755)
    for name in COMMANDS:
        link = folder / name
        link.write_text(f'#!/bin/sh\nexec "{program}" {name} "$@"\n')
        link.chmod(0o755)
    return folder


def calls(folder: Path) -> list[str]:
    log = folder / "calls.log"
    return log.read_text().splitlines() if log.exists() else []


def _main(argv: list[str]) -> int:
    """One branch per pretend command."""
    folder = Path(__file__).resolve().parent
    name, args = argv[0], argv[1:]
    with (folder / "calls.log").open("a") as log:
        log.write(" ".join([name, *args]) + "\n")
    state_file = folder / "state.json"
    state = json.loads(state_file.read_text())
    users: dict[str, list[str]] = state["users"]
    archive: list[str] | None = state.get("archive")
    status = 0
    changing = name in CHANGING or (name == "python3" and args[:2] == ["-m", "venv"]) or (
        name == "systemctl" and not {"is-active", "is-enabled"} & set(args))
    if changing:
        state["changes"] += 1
        state_file.write_text(json.dumps(state))
        if str(state["changes"]) == os.environ.get("TABLE99_STUB_KILL_AT"):
            os.killpg(os.getpgrp(), 9)  # the whole installer, as a power cut or kill -9 would
        if name == os.environ.get("TABLE99_STUB_FAIL"):
            print(f"{name}: failed (a stand-in told to fail)", file=sys.stderr)
            return 1
    if name == "dpkg-query":  # -W -f='${Package}=${db:Status-Status} ' PACKAGE...
        asked = [a for a in args if not a.startswith("-")]
        print("".join(f"{p}=installed " for p in asked if p in state["packages"]), end="")
        status = 0 if all(p in state["packages"] for p in asked) else 1
    elif name == "apt-get" and args[0] == "install":
        wanted = [a for a in args[1:] if not a.startswith("-")]
        unknown = [p for p in wanted if archive is not None and p not in archive]
        if unknown:  # as apt-get says it, and with its status
            print(f"E: Unable to locate package {unknown[0]}", file=sys.stderr)
            return 100
        state["packages"] += wanted
    elif name == "apt-cache" and args[0] == "policy":
        for package in args[1:]:
            if archive is None or package in archive:
                print(f"{package}:\n  Installed: (none)\n  Candidate: 1.0-1\n  Version table:")
    elif name == "getent":
        table, key = args
        known = users if table == "passwd" else state["groups"] + list(users)
        status = 0 if key in known else 2
        if status == 0:
            print(f"{key}:x:999:999::/nonexistent:/usr/sbin/nologin")
    elif name == "id" and args == ["-u"]:
        print(os.geteuid())
    elif name == "systemctl" and "--root" not in " ".join(args):  # a real root: no systemd here
        status = _systemctl(args)
    elif name == "id":
        if args[-1] not in users:
            return 1
        print(" ".join([args[-1], *users[args[-1]]]))
    elif name == "useradd":
        users[args[-1]] = []
    elif name == "groupdel":
        pass  # the pretend system's groups of users go with them (userdel)
    elif name == "usermod":
        users[args[-1]].append(args[args.index("-G") + 1])
    elif name == "userdel":
        del users[args[-1]]
    elif name == "gpasswd":
        member, group = args[1], args[2]
        if group in users.get(member, []):
            users[member].remove(group)
    elif name == "python3":
        if args[:2] == ["-m", "venv"]:
            venv = Path(args[-1])
            (venv / "bin").mkdir(parents=True)
            python = venv / "bin" / "python"
            python.write_text(VENV_PYTHON.format(program=folder / "stub.py"))
            python.chmod(0o755)
        elif args[:1] == ["-c"] and "numpy" in args[1]:
            print(f"3.11 {SYSTEM_NUMPY}" if "version_info" in args[1] else SYSTEM_NUMPY)
    state_file.write_text(json.dumps(state))
    return status


def _systemctl(args: list[str]) -> int:
    """What the installer asks of systemd on a real root, acted out on the unit's symlink."""
    words = [a for a in args if not a.startswith("-")]
    wants = Path("/etc/systemd/system/multi-user.target.wants/table99.service")
    if words[:1] == ["is-active"]:
        return 3  # not running
    if words[:1] == ["is-enabled"]:
        return 0 if wants.is_symlink() else 1
    if words[:1] == ["enable"]:
        wants.parent.mkdir(parents=True, exist_ok=True)
        if not wants.is_symlink():
            wants.symlink_to("/etc/systemd/system/table99.service")
    if words[:1] == ["disable"] and wants.is_symlink():
        wants.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(_main([os.path.basename(sys.argv[1]) if len(sys.argv) > 1 else "", *sys.argv[2:]]))
