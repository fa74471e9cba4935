"""Many tables, one screen (issue 19): tables report to a hub through an MQTT broker (docs/club.md).

``outbox`` and ``reporter`` run at a table (no Kivy); ``hub`` and ``hub_web`` are ``table99 hub``.
"""

TOPIC_ROOT = "table99"
# The largest payload the hub takes (a record of a very long rubber is ~100 KiB). The broker of
# deploy/club refuses any packet much over it (max_packet_size) and closes the sender's
# connection, so a table never sends one: it would be sent again on every reconnection.
MAX_PAYLOAD = 1 << 20


def topic(table: str, what: str) -> str:
    """``table99/<table>/<what>``; ``what`` is ``state``, ``event`` or ``record``."""
    return f"{TOPIC_ROOT}/{table}/{what}"


def ack_topic(table: str) -> str:
    """Where the hub confirms the records it keeps from ``table`` (retained; only the hub writes)."""
    return f"{TOPIC_ROOT}/hub/ack/{table}"
