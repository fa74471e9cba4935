"""Many tables, one screen (issue 19): tables report to a hub through an MQTT broker (docs/club.md).

``outbox`` and ``reporter`` run at a table (no Kivy); ``hub`` and ``hub_web`` are ``table99 hub``.
"""

TOPIC_ROOT = "table99"


def topic(table: str, what: str) -> str:
    """``table99/<table>/<what>``; ``what`` is ``state``, ``event`` or ``record``."""
    return f"{TOPIC_ROOT}/{table}/{what}"


def ack_topic(table: str) -> str:
    """Where the hub confirms the records it keeps from ``table`` (retained; only the hub writes)."""
    return f"{TOPIC_ROOT}/hub/ack/{table}"
