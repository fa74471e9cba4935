"""deploy/club/setup-hub.sh: rehearsed with --root, and its ACL and passwords tried on a real Mosquitto."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from app.club.hub import HubListener, HubStore
from tests.club_support import MOSQUITTO, free_port, need_mosquitto
from tests.test_club import wait_for

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "deploy" / "club" / "setup-hub.sh"


def setup_hub(root: Path, tables: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SCRIPT), "--root", str(root), "--tables", tables],
                          capture_output=True, text=True, timeout=60)


def test_the_script_is_shellcheck_clean() -> None:
    if shutil.which("shellcheck") is None:
        pytest.fail("shellcheck is needed: bash scripts/setup dev (as root) installs it")
    result = subprocess.run(["shellcheck", str(SCRIPT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_a_rehearsal_writes_everything_under_root_and_keeps_passwords(tmp_path: Path) -> None:
    result = setup_hub(tmp_path, "t1 t2")
    assert result.returncode == 0, result.stderr
    club = tmp_path / "etc/table99/club"
    # the hub runs as table99 (group of the folder on a real root) and must get in to read its password
    # (under the script's umask 077 the folder was 0700 root: the hub never started; issue 19 review)
    assert club.stat().st_mode & 0o777 == 0o750
    for name in ("hub", "t1", "t2"):
        assert (club / f"{name}.password").stat().st_mode & 0o077 == 0
    assert "new password for table t1" in result.stderr and "table hub" not in result.stderr
    acl = (tmp_path / "etc/mosquitto/table99.acl").read_text()
    assert ("user t1\ntopic write table99/t1/state\ntopic write table99/t1/event\n"
            "topic write table99/t1/record\ntopic read table99/hub/ack/t1\n") in acl
    assert "user hub\ntopic read table99/#\ntopic write table99/hub/ack/#\n" in acl
    first = (club / "t1.password").read_text()
    again = setup_hub(tmp_path, "t1 t2 t3")
    assert again.returncode == 0 and (club / "t1.password").read_text() == first
    assert "user t3" in (tmp_path / "etc/mosquitto/table99.acl").read_text()
    assert (tmp_path / "etc/systemd/system/table99-hub.service").is_file()
    for bad in ("a/#", "hub", ""):
        refused = setup_hub(tmp_path, bad)
        assert refused.returncode != 0 and refused.stderr.count("\n") == 1, refused.stderr


def test_adding_a_table_keeps_the_tables_set_up_before(tmp_path: Path) -> None:
    """Issue 32, point 10: ``--tables t7`` on a hub set up for t1-t6 wrote t7 alone into the
    password file and the ACL (its help says tables are added): t1-t6 were locked out."""
    six = " ".join(f"t{n}" for n in range(1, 7))
    assert setup_hub(tmp_path, six).returncode == 0
    club = tmp_path / "etc/table99/club"
    before = {n: (club / f"{n}.password").read_text() for n in six.split()}
    result = setup_hub(tmp_path, "t7")
    assert result.returncode == 0, result.stderr
    assert "new password for table t7" in result.stderr and "table t1" not in result.stderr
    acl = (tmp_path / "etc/mosquitto/table99.acl").read_text()
    users = (tmp_path / "etc/mosquitto/table99.passwd").read_text()
    for name in [*six.split(), "t7", "hub"]:
        assert f"user {name}\n" in acl and f"{name}:" in users
    assert {n: (club / f"{n}.password").read_text() for n in six.split()} == before
    assert f"broker users hub {six} t7;" in result.stdout
    (club / "t3.password").unlink()  # how a table is dropped
    assert setup_hub(tmp_path, "t7").returncode == 0
    assert "user t3\n" not in (tmp_path / "etc/mosquitto/table99.acl").read_text()


@pytest.mark.slow
def test_its_acl_and_passwords_work_on_a_real_mosquitto(tmp_path: Path) -> None:
    import paho.mqtt.client as mqtt

    need_mosquitto()
    assert setup_hub(tmp_path, "t1 t2").returncode == 0
    etc = tmp_path / "etc"
    port = free_port()
    conf = (etc / "mosquitto/conf.d/table99.conf").read_text()
    conf = conf.replace("listener 1883", f"listener {port} 127.0.0.1")
    conf = conf.replace("/etc/mosquitto/", f"{etc}/mosquitto/")
    conf = conf.replace("persistence true", "persistence false")
    if os.getuid() == 0:
        conf += f"user {pwd.getpwuid(0).pw_name}\n"
    (tmp_path / "m.conf").write_text(conf)
    assert MOSQUITTO is not None
    broker = subprocess.Popen([MOSQUITTO, "-c", str(tmp_path / "m.conf")], stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.5)
        secret = {n: (etc / f"table99/club/{n}.password").read_text().strip() for n in ("hub", "t1", "t2")}
        hub = HubStore(tmp_path / "hub.sqlite3")
        listener = HubListener(hub, "127.0.0.1", port, "hub", secret["hub"], client_id="deploy-hub").start()
        wait_for(lambda: listener.status.startswith("hub: listening"), 10, listener.status)
        time.sleep(0.3)
        table = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="t1")
        table.username_pw_set("t1", secret["t1"])
        table.connect("127.0.0.1", port)
        table.loop_start()
        for name in ("t2", "t1"):  # under another table's name: dropped by the ACL
            table.publish(f"table99/{name}/event", json.dumps({"id": f"{name}:x:1", "game": f"{name}-x-1"}),
                          qos=1).wait_for_publish(5)
        wait_for(lambda: hub.count("messages") == 1, 10, "t1's own event")
        time.sleep(0.3)
        assert [t["name"] for t in hub.tables()] == ["t1"]
        refused = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="t2-wrong")
        refused.username_pw_set("t2", secret["t1"])  # another table's password
        answers: list[object] = []
        refused.on_connect = lambda c, u, f, reason, p: answers.append(reason)
        refused.connect("127.0.0.1", port)
        refused.loop_start()
        wait_for(lambda: bool(answers), 10, "the broker's answer")
        assert answers[0].is_failure and "authorized" in str(answers[0])  # type: ignore[attr-defined]
        refused.loop_stop()
        limits(table, hub, port, secret["hub"])
        table.loop_stop()
        listener.stop()
    finally:
        broker.send_signal(signal.SIGTERM)
        broker.wait(10)


def limits(table: object, hub: HubStore, port: int, hub_secret: str) -> None:
    """Issue 32, point 11: a 64 MiB retained state was taken (the broker and mosquitto.db grew by
    it), and a table could retain on any number of its own subtopics. Now: no packet over 1 MiB and
    a little, and a table writes exactly its state, event and record."""
    import paho.mqtt.client as mqtt

    assert isinstance(table, mqtt.Client)
    heard = hub.count("messages")
    for sub in ("extra", "state/x"):  # refused by the ACL (Mosquitto acknowledges and drops it)
        table.publish(f"table99/t1/{sub}", json.dumps({"id": f"t1:x:{sub}"}), qos=1,
                      retain=True).wait_for_publish(5)
    big = json.dumps({"id": "t1:x:2", "pad": "x" * (2 << 20)})
    sender = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="t1-big")
    sender.username_pw_set("t1", table._password.decode() if table._password else "")
    sender.connect("127.0.0.1", port)
    sender.loop_start()
    sender.publish("table99/t1/state", big, qos=1, retain=True)  # dropped, and its sender disconnected
    wait_for(lambda: not sender.is_connected(), 10, "the broker closing on the big packet")
    sender.loop_stop()
    small = json.dumps({"id": "t1:x:3", "game": "t1-x-3"})  # after paho reconnected: taken
    table.publish("table99/t1/event", small, qos=1, retain=True).wait_for_publish(15)
    wait_for(lambda: hub.count("messages") == heard + 1, 10, "the small event")
    retained: list[tuple[str, int]] = []
    reader = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="retained-reader")
    reader.username_pw_set("hub", hub_secret)
    reader.on_message = lambda c, u, m: retained.append((m.topic, len(m.payload)))
    reader.on_connect = lambda c, u, f, reason, p: c.subscribe("table99/t1/#", qos=1)
    reader.connect("127.0.0.1", port)
    reader.loop_start()
    wait_for(lambda: bool(retained), 10, "the retained event")
    time.sleep(0.5)
    reader.loop_stop()
    assert retained == [("table99/t1/event", len(small))]
    assert hub.count("messages") == heard + 1
