"""deploy/install.sh on a real root ("/"), in a throw-away root this test builds itself.

The scratch-root tests (``--root DIR``) cannot see bugs in the paths that only run with ``R``
empty: ``sudo deploy/install.sh --uninstall`` died on ``rm -rf "${R:?}$path"`` (issue 17, point
2) and only stopped and disabled the service. Here the installer runs as root on ``/`` inside a
private mount namespace (``unshare --mount``) where /etc, /opt and /var/lib are overlays whose
writes land in a temporary folder: the installer's own file handling runs for real on the real
paths, and nothing on this machine changes. The commands that would change the system beyond
files (apt-get, useradd, udevadm, systemd, pip) are the stand-ins of tests/test_deploy_support.py,
first on $PATH.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.test_deploy_support import make_stubs

OVERLAID = ("/etc", "/opt", "/var/lib")


def namespace_problem() -> str | None:
    if os.geteuid() != 0:
        return "needs root (a mount namespace with overlays)"
    if shutil.which("unshare") is None:
        return "needs unshare (util-linux)"
    return None


def run_in_throwaway_root(tmp_path: Path, source: Path, steps: list[list[str]],
                          users: dict[str, list[str]] | None = None) -> list[dict[str, object]]:
    """Run the installer once per step on "/" in a private namespace; after each, what is where."""
    stubs = make_stubs(tmp_path / "stubs", users=users)
    mounts = []
    for n, target in enumerate(OVERLAID):
        upper, work = tmp_path / f"upper{n}", tmp_path / f"work{n}"
        mounts.append(f"mkdir -p {upper} {work} && mount -t overlay overlay "
                      f"-o lowerdir={target},upperdir={upper},workdir={work} {target}")
    probe = textwrap.dedent("""
        import json, os, sys
        paths = ["/etc/systemd/system/table99.service", "/etc/systemd/system/table99.service.d",
                 "/etc/systemd/system/multi-user.target.wants/table99.service",
                 "/etc/udev/rules.d/99-table99.rules", "/etc/table99/config.toml", "/opt/table99",
                 "/etc/xdg/autostart/table99.desktop", "/var/lib/table99"]
        print("STATE " + json.dumps({p: os.path.lexists(p) for p in paths}))
    """)
    script = ["set -e", *mounts, f"export PATH={stubs}:$PATH", "export TABLE99_STUBS="]
    for step in steps:
        script.append(f"bash {source}/deploy/install.sh {' '.join(step)} >> {tmp_path}/log 2>&1 "
                      f"|| {{ echo FAILED {' '.join(step)}; cat {tmp_path}/log; exit 1; }}")
        script.append(f"{sys.executable} -c '{probe}'")  # not the python3 stand-in on $PATH
    done = subprocess.run(["unshare", "--mount", "--propagation", "private", "bash", "-c", "\n".join(script)],
                          capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    return [json.loads(line[6:]) for line in done.stdout.splitlines() if line.startswith("STATE ")]


@pytest.fixture
def still_source(tmp_path: Path) -> Path:
    from tests.test_deploy import ROOT

    copy = tmp_path / "checkout"
    copy.mkdir()
    from tests.test_deploy import PACKAGE_PARTS

    for part in PACKAGE_PARTS:
        if (ROOT / part).is_dir():
            shutil.copytree(ROOT / part, copy / part, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(ROOT / part, copy / part)
    copy.chmod(0o755)
    return copy


def test_install_rotation_and_uninstall_on_a_real_root(tmp_path: Path, still_source: Path) -> None:
    if (problem := namespace_problem()) is not None:
        pytest.skip(problem)
    before = {target: sorted(os.listdir(target)) for target in OVERLAID}
    installed, rotated, unrotated, removed = run_in_throwaway_root(
        tmp_path, still_source,
        [["--mode", "console"], ["--mode", "console", "--rotation", "90"],
         ["--mode", "console", "--rotation", "0"], ["--uninstall"]])
    assert installed["/etc/systemd/system/table99.service"] and installed["/opt/table99"]
    assert installed["/etc/table99/config.toml"]
    assert installed["/etc/systemd/system/multi-user.target.wants/table99.service"]
    assert rotated["/etc/systemd/system/table99.service.d"]
    assert not unrotated["/etc/systemd/system/table99.service.d"]  # removed on "/" (R empty)
    leftovers = [path for path, there in removed.items() if there and path != "/var/lib/table99"]
    assert leftovers == [], f"--uninstall on a real root left {leftovers}"
    # nothing outside the namespace changed
    assert {target: sorted(os.listdir(target)) for target in OVERLAID} == before
    assert not Path("/etc/table99").exists() or "table99" in before["/etc"]


def test_desktop_to_console_and_uninstall_on_a_real_root(tmp_path: Path, still_source: Path) -> None:
    """Issue 17, point 2: switching desktop -> console hit the same ``${R:?}`` line on "/"."""
    if (problem := namespace_problem()) is not None:
        pytest.skip(problem)
    before = {target: sorted(os.listdir(target)) for target in OVERLAID}
    desktop, console, removed = run_in_throwaway_root(
        tmp_path, still_source,
        [["--mode", "desktop", "--desktop-user", "pi"], ["--mode", "console"], ["--uninstall"]],
        users={"pi": []})
    assert desktop["/etc/xdg/autostart/table99.desktop"] and desktop["/opt/table99"]
    assert not desktop["/etc/systemd/system/multi-user.target.wants/table99.service"]
    assert not console["/etc/xdg/autostart/table99.desktop"]  # removed on "/" (R empty)
    assert console["/etc/systemd/system/multi-user.target.wants/table99.service"]
    leftovers = [path for path, there in removed.items() if there and path != "/var/lib/table99"]
    assert leftovers == [], f"--uninstall on a real root left {leftovers}"
    assert {target: sorted(os.listdir(target)) for target in OVERLAID} == before
