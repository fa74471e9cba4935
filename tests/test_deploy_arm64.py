"""Issue 31: the installer on plain arm64 Debian, killed half-way, its printed commands, its lock.

Fast and without qemu: the installer runs into a scratch root with the stand-ins of
tests/test_deploy_support.py (an apt archive without the Raspberry Pi's packages, a kill at the Nth
command that changes the system), and the printed config check runs as the users it is printed to in
a private mount namespace. ``deploy/rehearse.sh`` does the same on a real arm64 root under qemu.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.test_deploy import DEPLOY, Pi, snapshot
from tests.test_deploy import source as source  # the still copy of the checkout (a fixture)
from tests.test_deploy_support import CHANGING, make_stubs

# What Debian bookworm's arm64 archive has of the installer's packages: all but the two that only the
# Raspberry Pi archive has (python3-lgpio, python3-picamera2); libasound2 under its bookworm name.
DEBIAN = ["python3", "python3-venv", "python3-numpy", "python3-serial", "libgl1", "libegl1", "libgles2",
          "libgbm1", "libdrm2", "libgl1-mesa-dri", "libmtdev1", "libudev1", "libasound2", "espeak-ng"]
PI_ONLY = ["python3-lgpio", "python3-picamera2"]


def debian_pi(tmp_path: Path, source: Path, archive: list[str] = DEBIAN) -> Pi:
    pi = Pi(tmp_path, source)
    make_stubs(pi.stubs, archive=archive)
    return pi


# --- point 1: plain Debian has no python3-lgpio, python3-picamera2 ----------------------------------

def test_without_the_raspberry_pi_archive_the_rest_is_installed_and_the_loss_said_once(
        tmp_path: Path, source: Path) -> None:
    pi = debian_pi(tmp_path, source)
    done = pi.run(ok=False)
    assert done.returncode == 0, done.stdout + done.stderr  # the old installer: apt-get's 100
    installs = [c.split() for c in pi.last_calls if c.startswith("apt-get install")]
    assert len(installs) == 1
    assert sorted(p for p in installs[0][2:] if not p.startswith("-")) == sorted(DEBIAN)
    said = done.stdout + done.stderr
    losses = (("python3-lgpio", "lgpio pin factory is off"), ("python3-picamera2", "Pi camera is off"))
    for package, loss in losses:
        lines = [line for line in said.splitlines() if package in line]
        assert len(lines) == 1 and loss in lines[0], said
    assert "table99" in pi.state()["users"]  # type: ignore[operator]
    assert pi.path("/etc/systemd/system/table99.service").is_file()


def test_require_camera_makes_a_missing_picamera2_an_error_before_anything_is_made(
        tmp_path: Path, source: Path) -> None:
    pi = debian_pi(tmp_path, source)
    before = snapshot(pi.root)
    done = pi.run("--require-camera", ok=False)
    errors = done.stderr.strip().splitlines()
    assert done.returncode == 1 and len(errors) == 1, done.stderr
    assert errors[0].startswith("install.sh: error: --require-camera: apt has no python3-picamera2"), errors
    assert snapshot(pi.root) == before and pi.state()["users"] == {}
    pi = debian_pi(tmp_path / "pi-os", source, archive=DEBIAN + PI_ONLY)
    pi.run("--require-camera")
    assert "python3-picamera2" in next(c for c in pi.last_calls if c.startswith("apt-get install"))


def test_a_missing_package_the_app_needs_is_a_one_line_error(tmp_path: Path, source: Path) -> None:
    pi = debian_pi(tmp_path, source, archive=[p for p in DEBIAN if p != "espeak-ng"])
    done = pi.run(ok=False)
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert "apt's archives here have no espeak-ng, which Table99 needs" in done.stderr


def test_trixie_names_libasound2t64_and_libmtdev1t64(tmp_path: Path, source: Path) -> None:
    """Debian 13 renamed them (64-bit time); the old names are not in its archive."""
    trixie = [p for p in DEBIAN if p not in ("libasound2", "libmtdev1")] + ["libasound2t64", "libmtdev1t64"]
    pi = debian_pi(tmp_path, source, archive=trixie)
    pi.run()
    install = next(c for c in pi.last_calls if c.startswith("apt-get install")).split()
    assert {"libasound2t64", "libmtdev1t64"} <= set(install)
    assert not {"libasound2", "libmtdev1"} & set(install)


# --- point 2: a run killed at any step keeps the uninstall record -----------------------------------

def run_with(pi: Pi, *args: str, ok: bool = True, **env: str) -> subprocess.CompletedProcess[str]:
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        return pi.run(*args, ok=ok)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def changes(pi: Pi) -> int:
    return int(pi.state()["changes"])  # type: ignore[call-overload]


def test_a_first_run_that_failed_after_making_the_user_is_undone_by_purge(
        tmp_path: Path, source: Path) -> None:
    """The issue's case: the user and its groups made, then pip fails (the Wi-Fi dropped)."""
    pi = Pi(tmp_path, source)
    before = snapshot(pi.root, dir_mtimes=False)
    failed = run_with(pi, ok=False, TABLE99_STUB_FAIL="venv-python")
    assert failed.returncode != 0 and "table99" in pi.state()["users"]  # type: ignore[operator]
    pi.run()
    pi.run("--uninstall", "--purge")
    assert pi.state()["users"] == {}, "--uninstall --purge left the user and its groups"
    assert snapshot(pi.root, dir_mtimes=False) == before


def full_run_changes(tmp_path: Path, source: Path, *args: str, users: dict[str, list[str]] | None) -> int:
    pi = Pi(tmp_path / "count", source, users=users)
    pi.run(*args)
    return changes(pi)


SETUPS = {"table99": ([], None), "--user pi": (["--user", "pi"], {"pi": ["video"]})}


@pytest.mark.parametrize(("setup", "part"), [("table99", 0), ("table99", 1), ("--user pi", 0)])
def test_killed_at_every_step_then_rerun_and_purged_leaves_nothing(
        tmp_path: Path, source: Path, setup: str, part: int) -> None:
    """SIGKILL at the Nth command that changes the system (before it acts), for every N of a full
    run (the service user table99: split in two halves for pytest -n; --user pi: every third N),
    then a whole run and --uninstall --purge: the scratch root and the pretend system's users and
    groups are as before. Every third N the second run is killed too, at its own Nth."""
    args, users = SETUPS[setup]
    total = full_run_changes(tmp_path, source, *args, users=users)
    assert total >= 10  # apt, useradd, six groups, chowns, venv, pip...
    points = range(1 + part, total + 1, 2 if users is None else 3)
    for n in points:
        pi = Pi(tmp_path / f"kill{n}", source, users={k: list(v) for k, v in (users or {}).items()})
        before = snapshot(pi.root, dir_mtimes=False)
        first = run_with(pi, *args, ok=False, TABLE99_STUB_KILL_AT=str(n))
        assert first.returncode == -9, (n, first.stdout, first.stderr)
        if n % 3 == 0:
            second = run_with(pi, *args, ok=False, TABLE99_STUB_KILL_AT=str(changes(pi) + n))
            assert second.returncode in (0, -9), (n, second.stdout, second.stderr)
        pi.run(*args)
        pi.run("--uninstall", "--purge")
        assert pi.state()["users"] == (users or {}), f"killed at change {n}: users and groups left"
        assert snapshot(pi.root, dir_mtimes=False) == before, f"killed at change {n}: files left"


def is_changing(call: str) -> bool:
    """The stand-ins' own rule for a command that changes the system (tests/test_deploy_support.py)."""
    name, *args = call.split()
    return name in CHANGING or (name == "python3" and args[:2] == ["-m", "venv"]) or (
        name == "systemctl" and not {"is-active", "is-enabled"} & set(args))


def test_the_record_is_written_before_the_user_is_made(tmp_path: Path, source: Path) -> None:
    full = Pi(tmp_path / "full", source)
    full.run()
    useradd = 1 + [c.split()[0] for c in full.last_calls if is_changing(c)].index("useradd")
    pi = Pi(tmp_path / "killed", source)
    run_with(pi, ok=False, TABLE99_STUB_KILL_AT=str(useradd))
    assert "table99" not in pi.state()["users"]  # type: ignore[operator]  # killed before useradd acted
    assert "created_user=table99" in pi.path("/opt/table99/install-state").read_text()


# --- point 3: the printed config check works as printed, as pi ---------------------------------------

def readme_step4() -> list[str]:
    text = (DEPLOY / "README.md").read_text()
    block = text.split("## 4. Install", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    return [re.sub(r"\s{2,}#.*$", "", line) for line in block.splitlines() if line.strip()]


def printed_config_check(stdout: str) -> str:
    lines = [line.split("Check the config with: ", 1)[1] for line in stdout.splitlines()
             if "Check the config with: " in line]
    assert len(lines) == 1, stdout
    return lines[0]


def as_users(tmp_path: Path, commands: list[str]) -> list[tuple[int, str, bool]]:
    """Run each command as pi (uid 4242, sudo's group only) on a pretend Pi in a private mount
    namespace: /etc, /opt, /var/lib, /home overlaid; the users pi and table99 (4243) in its passwd;
    /etc/table99/config.toml 0640 root:table99; /var/lib/table99 2770 table99:table99;
    /opt/table99/venv/bin/table99 this checkout's. This machine has no sudo: a command starting with
    "sudo -u USER" is run by the harness as USER with sudo's reset environment (HOME from passwd).
    Returns, for each: its status, its output, and whether /home/pi/.local/share/table99 exists after."""
    venv_table99 = Path(sys.executable).parent / "table99"
    assert venv_table99.exists(), venv_table99
    mounts = []
    # A folder only its owner may enter on the way to this checkout or its venv (a clone in a 0700
    # folder, the venv's python under /root) is overlaid with a passable top, as /root is, so that
    # pi can run the checkout's table99 as the Pi's /opt/table99/venv would let it.
    fixed = ("/etc", "/opt", "/var/lib", "/home", "/root")
    closed = sorted({str(folder) for start in (Path(__file__).resolve(), Path(sys.executable).resolve())
                     for folder in start.parents
                     if str(folder) not in fixed and not folder.stat().st_mode & 0o001},
                    key=lambda name: name.count("/"))
    for n, target in enumerate((*fixed, *closed)):
        upper, work = tmp_path / f"upper{n}", tmp_path / f"work{n}"
        upper.mkdir(parents=True)
        work.mkdir()
        upper.chmod(0o755)  # passable for the users
        mounts.append(f"mount -t overlay overlay -o lowerdir={target},upperdir={upper},workdir={work} "
                      f"{target}")
    setup = textwrap.dedent(f"""
        set -e
        {chr(10).join(mounts)}
        echo 'pi:x:4242:4242::/home/pi:/bin/sh' >> /etc/passwd
        echo 'table99:x:4243:4243::/var/lib/table99:/usr/sbin/nologin' >> /etc/passwd
        echo 'pi:x:4242:' >> /etc/group
        echo 'table99:x:4243:' >> /etc/group
        mkdir -p /home/pi /etc/table99 /var/lib/table99 /opt/table99/venv/bin
        chown 4242:4242 /home/pi
        install -m 0640 -o root -g 4243 {DEPLOY}/config.toml /etc/table99/config.toml
        chown 4243:4243 /var/lib/table99
        chmod 2770 /var/lib/table99
        ln -s {venv_table99} /opt/table99/venv/bin/table99
        set +e
    """)
    runs = []
    for command in commands:
        if command.startswith("sudo -u "):
            user, rest = command.removeprefix("sudo -u ").split(" ", 1)
            uid, home = {"table99": (4243, "/var/lib/table99"), "pi": (4242, "/home/pi")}[user]
        else:
            uid, home, rest = 4242, "/home/pi", command
        runs.append(f"cd /home/pi && setpriv --reuid={uid} --regid={uid} --clear-groups "
                    f"env -i PATH=/usr/bin:/bin HOME={home} LANG=C.UTF-8 sh -c '{rest}' 2>&1; "
                    f"echo \"STATUS $?\"; "
                    f"echo ===; ls -d /home/pi/.local/share/table99 2>/dev/null; rm -rf /home/pi/.local; "
                    f"echo ===END")
    done = subprocess.run(["unshare", "--mount", "--propagation", "private", "bash", "-c",
                           setup + "\n".join(runs)], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    results = []
    for chunk in done.stdout.split("===END\n")[:-1]:
        out, leftovers = chunk.rsplit("===\n", 1)
        body, status = out.rsplit("STATUS ", 1)
        results.append((int(status), body, leftovers.strip() != ""))
    assert len(results) == len(commands), done.stdout + done.stderr
    return results


def test_the_config_check_printed_by_installer_and_readme_works_as_pi(tmp_path: Path, source: Path) -> None:
    if os.geteuid() != 0 or shutil.which("unshare") is None or shutil.which("setpriv") is None:
        pytest.skip("needs root, unshare and setpriv (a private mount namespace with users)")
    pi = Pi(tmp_path / "scratch", source)
    printed = printed_config_check(pi.run().stdout)
    readme = [line for line in readme_step4() if re.search(r"table99 config$", line)]
    assert readme == [printed], "README step 4 and the installer must print the same check"
    (old_status, old_out, old_made), (status, out, made) = as_users(
        tmp_path / "ns", ["/opt/table99/venv/bin/table99 config", printed])
    # the harness shows the failure with the old words (and the wrong, new, empty folder)...
    assert old_status == 2 and "/etc/table99/config.toml: cannot read: Permission denied" in old_out, old_out
    assert old_made and "/home/pi/.local/share/table99" in old_out
    # ...and the printed words work, name the service's folder, and make nothing in pi's home
    assert status == 0, out
    assert "/etc/table99/config.toml is fine" in out, out
    assert "The app keeps its games in /var/lib/table99." in out, out
    assert "/home/pi/.local/share/table99" not in out and not made


# --- point 4: the lock holds every package, with hashes ----------------------------------------------

LOCK = DEPLOY / "requirements.lock"
PI_EXTRAS = {"gpio", "serial", "vision", "web"}


def parse_lock(text: str) -> dict[str, list[tuple[str, str, list[str]]]]:
    """name -> [(version, marker, hashes)] from pip's hash-checking requirements format."""
    entries: dict[str, list[tuple[str, str, list[str]]]] = {}
    for item in text.replace("\\\n", " ").splitlines():
        item = item.strip()
        if not item or item.startswith("#"):
            continue
        requirement, *hashes = item.split(" --hash=")
        name_version, _, marker = requirement.partition(";")
        name, _, version = name_version.strip().partition("==")
        assert version, f"not pinned with ==: {item}"
        assert hashes and all(h.strip().startswith("sha256:") for h in hashes), f"no sha256 hash: {item}"
        entries.setdefault(canonicalize_name(name), []).append(
            (version.strip(), marker.strip(), [h.strip() for h in hashes]))
    return entries


def needed(environment: dict[str, str]) -> set[str]:
    """Every distribution table99[gpio,serial,vision,web] needs in that environment, transitively,
    read from the installed metadata (where the tests run, every one of them is installed)."""
    from importlib.metadata import PackageNotFoundError, distribution

    found: set[str] = set()
    todo: list[tuple[str, frozenset[str]]] = [("table99", frozenset(PI_EXTRAS))]
    while todo:
        name, extras = todo.pop()
        for line in distribution(name).requires or []:
            requirement = Requirement(line)
            marker = requirement.marker
            if marker is not None and not any(
                    marker.evaluate({**environment, "extra": extra}) for extra in (extras or {""})):
                continue
            key = canonicalize_name(requirement.name)
            if key == "table99":
                todo.append((key, frozenset(requirement.extras)))
                continue
            if key in found:
                continue
            found.add(key)
            try:
                distribution(key)
            except PackageNotFoundError:
                found.add(f"{key} (not installed where the tests run: cannot follow it)")
                continue
            todo.append((key, frozenset(requirement.extras)))
    return found


PI_311 = {"python_version": "3.11", "python_full_version": "3.11.2", "platform_machine": "aarch64",
          "sys_platform": "linux", "platform_system": "Linux", "os_name": "posix",
          "implementation_name": "cpython", "platform_python_implementation": "CPython"}


def missing_from_lock(lock_text: str, environment: dict[str, str]) -> list[str]:
    lock = parse_lock(lock_text)
    missing = []
    for name in sorted(needed(environment)):
        versions = lock.get(name, [])
        if not any(not marker or Marker(marker).evaluate(environment) for _, marker, _ in versions):
            missing.append(name)
    return missing


def test_the_lock_holds_every_package_the_pi_installs_with_hashes() -> None:
    text = LOCK.read_text()
    for environment in (PI_311, {**PI_311, "platform_machine": "x86_64"},
                        {**PI_311, "python_version": "3.13", "python_full_version": "3.13.5"}):
        assert missing_from_lock(text, environment) == [], environment
    lock = parse_lock(text)
    assert "setuptools" in lock  # Table99 itself is built from the lock's setuptools, nothing fetched
    assert {"requests", "urllib3", "idna", "docutils", "pygments", "attrs"} <= set(lock)  # the issue's


def test_the_lock_check_fails_when_a_dependency_is_missing() -> None:
    text = LOCK.read_text()
    without = re.sub(r"(?ms)^urllib3==.*?(?=^\S)", "", text)
    assert without != text
    assert missing_from_lock(without, PI_311) == ["urllib3"]


def test_the_lock_pins_apts_numpy_and_what_the_constraints_pin() -> None:
    lock = parse_lock(LOCK.read_text())
    numpy = {marker: version for version, marker, _ in lock["numpy"]}
    assert any(version == "1.24.2" and Marker(marker).evaluate(PI_311) for marker, version in numpy.items())
    for line in (DEPLOY / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            assert [v for v, _, _ in lock[canonicalize_name(name)]] == [version], name


def test_the_installer_installs_the_lock_with_require_hashes(tmp_path: Path, source: Path) -> None:
    pi = Pi(tmp_path, source)
    pi.run()
    lock = pi.path("/opt/table99/requirements.lock")
    pips = [c for c in pi.last_calls if c.startswith("venv-python -m pip install")]
    assert pips[0].endswith(f"--require-hashes --only-binary=:all: --requirement {lock}")
    assert "--no-deps --no-index" in pips[1]  # Table99 itself: nothing else, nothing fetched


def test_a_lock_without_apts_numpy_stops_the_install(tmp_path: Path, source: Path) -> None:
    """picamera2's simplejpeg was built for apt's numpy: a lock with another one must not install."""
    lock = source / "deploy" / "requirements.lock"
    original = lock.read_text()
    lock.write_text(original.replace("numpy==1.24.2 ;", "numpy==1.26.4 ;"))
    try:
        done = Pi(tmp_path, source).run(ok=False)
    finally:
        lock.write_text(original)
    assert done.returncode == 1
    assert "apt's numpy is 1.24.2 (Python 3.11) but deploy/requirements.lock has 1.26.4" in done.stderr, \
        done.stderr

