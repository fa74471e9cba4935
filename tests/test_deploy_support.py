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
    "systemctl", "udevadm", "chown", "python3",
)
SYSTEM_NUMPY = "1.24.2"

VENV_PYTHON = """#!/bin/sh
# the scratch venv's python: logs what pip was asked to do
printf '%s\\n' "venv-python $*" >> "{log}"
"""


RASPBERRY_PI_OS_GROUPS = ("gpio", "dialout", "video", "render", "input", "audio")


def make_stubs(folder: Path, *, groups: tuple[str, ...] = RASPBERRY_PI_OS_GROUPS,
               users: dict[str, list[str]] | None = None) -> Path:
    """Write the stub commands into ``folder``; return it (the value for $TABLE99_STUBS)."""
    folder.mkdir(parents=True, exist_ok=True)
    state = {"packages": [], "groups": list(groups), "users": users or {}}
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
    status = 0
    if name == "dpkg-query":  # -W -f='${Package}=${db:Status-Status} ' PACKAGE...
        asked = [a for a in args if not a.startswith("-")]
        print("".join(f"{p}=installed " for p in asked if p in state["packages"]), end="")
        status = 0 if all(p in state["packages"] for p in asked) else 1
    elif name == "apt-get" and args[0] == "install":
        state["packages"] += [a for a in args[1:] if not a.startswith("-")]
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
            python.write_text(VENV_PYTHON.format(log=folder / "calls.log"))
            python.chmod(0o755)
        elif args[:1] == ["-c"] and "numpy" in args[1]:
            print(SYSTEM_NUMPY)
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
