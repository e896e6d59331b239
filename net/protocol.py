"""The network table's message protocol: versioned JSON objects over WebSocket text frames (``docs/network.md``).

Every message is one JSON object with a ``type``; :func:`decode` checks it against :data:`CLIENT_MESSAGES` (what a
client may send) or :data:`HOST_MESSAGES` and raises :class:`ProtocolError` with a reason code and a one-line
explanation. Nothing but JSON is ever read (no pickle, no eval).
"""

from __future__ import annotations

import json
import secrets
from typing import Any

PROTOCOL_VERSION = 1
"""Bumped on every incompatible change; a host refuses a client of another version at join time."""

MAX_CLIENT_MESSAGE = 16 * 1024
"""Largest message (bytes) the host accepts from a client: a larger frame closes that connection (code 1009)."""
MAX_HOST_MESSAGE = 4 * 1024 * 1024
"""Largest message (bytes) a client accepts from the host (a finished match's record is the largest)."""
MAX_HISTORY = 1024 * 1024
"""Largest ``history`` (bytes) the host sends: a longer hand's history keeps its last moves."""

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: easy to read aloud and type
CODE_LENGTH = 6
NAME_LIMIT = 40

# --- reason codes ---------------------------------------------------------------------------------------
BAD_JSON = "bad_json"
NOT_OBJECT = "not_object"
UNKNOWN_TYPE = "unknown_type"
BAD_FIELD = "bad_field"
NOT_JOINED = "not_joined"
ALREADY_JOINED = "already_joined"
BAD_CODE = "bad_code"
PROTOCOL_MISMATCH = "protocol_mismatch"
SEAT_TAKEN = "seat_taken"
NO_FREE_SEAT = "no_free_seat"
BAD_SEAT = "bad_seat"
STARTED = "started"
BAD_TOKEN = "bad_token"
NOT_STARTED = "not_started"
NOT_YOUR_TURN = "not_your_turn"
STALE = "stale"
ILLEGAL = "illegal"
HAND_OVER = "hand_over"

JOIN_REFUSALS = (BAD_CODE, PROTOCOL_MISMATCH, SEAT_TAKEN, NO_FREE_SEAT, BAD_SEAT, STARTED, BAD_TOKEN)
MOVE_REFUSALS = (NOT_STARTED, NOT_YOUR_TURN, STALE, ILLEGAL, HAND_OVER)
MESSAGE_ERRORS = (BAD_JSON, NOT_OBJECT, UNKNOWN_TYPE, BAD_FIELD, NOT_JOINED, ALREADY_JOINED)

_INT = (int,)
_STR = (str,)
_OPT_INT = (int, type(None))
_OPT_STR = (str, type(None))

CLIENT_MESSAGES: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    # field: (allowed JSON types, required)
    "join": {"protocol": (_INT, True), "app": (_STR, True), "code": (_STR, True), "name": (_STR, True),
             "seat": (_OPT_INT, False)},
    "rejoin": {"protocol": (_INT, True), "app": (_STR, True), "code": (_STR, True), "name": (_STR, True),
               "seat": (_INT, True), "token": (_OPT_STR, False)},
    "move": {"move": (_INT, True), "hand": (_INT, True), "ply": (_INT, True)},
    "ready": {"hand": (_INT, True)},
    "leave": {},
    "ping": {"id": (_OPT_INT, False)},
}
"""Messages a client sends, with their fields."""

HOST_MESSAGES: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "welcome": {"seat": (_INT, True), "token": (_STR, True)},
    "refused": {"reason": (_STR, True), "message": (_STR, True)},
    "lobby": {"seats": ((list,), True), "started": ((bool,), True)},
    "start": {"hand": (_INT, True)},
    "played": {"hand": (_INT, True), "ply": (_INT, True), "seat": (_INT, True)},
    "state": {"hand": (_INT, True), "ply": (_INT, True), "observation": ((dict,), True)},
    "history": {"hand": (_INT, True), "ply": (_INT, True), "messages": ((list,), True)},
    "your_turn": {"hand": (_INT, True), "ply": (_INT, True), "moves": ((list,), True)},
    "move_refused": {"reason": (_STR, True), "message": (_STR, True)},
    "hand_end": {"hand": (_INT, True), "result": ((dict,), True), "totals": ((list,), True)},
    "match_end": {"totals": ((list,), True), "winners": ((list,), True), "record": ((dict,), True)},
    "closed": {"reason": (_STR, True), "message": (_STR, True)},
    "error": {"reason": (_STR, True), "message": (_STR, True)},
    "pong": {"id": (_OPT_INT, False)},
}
"""Messages the host sends, with their required fields (documented in full in ``docs/network.md``)."""


class ProtocolError(Exception):
    """A message that breaks the protocol: ``reason`` is a code from this module, the text says why."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def encode(message: dict[str, Any]) -> str:
    """One message as compact JSON text (raises ValueError for NaN/infinity or non-JSON values)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def decode(text: str | bytes, allowed: dict[str, dict[str, tuple[tuple[type, ...], bool]]]) -> dict[str, Any]:
    """Parse and check one message against ``allowed`` (:data:`CLIENT_MESSAGES` or :data:`HOST_MESSAGES`)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError(BAD_JSON, "the message is not UTF-8 text") from None
    try:
        message = json.loads(text)
    except RecursionError:
        raise ProtocolError(BAD_JSON, "the message is nested too deeply") from None
    except ValueError as e:
        raise ProtocolError(BAD_JSON, f"the message is not JSON: {e}") from None
    if not isinstance(message, dict):
        raise ProtocolError(NOT_OBJECT, f"a message must be a JSON object, not {type(message).__name__}")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in allowed:
        raise ProtocolError(UNKNOWN_TYPE, f"unknown message type {str(kind)[:40]!r}; valid types: "
                            + ", ".join(sorted(allowed)))
    for name, (types, required) in allowed[kind].items():
        if name not in message:
            if required:
                raise ProtocolError(BAD_FIELD, f"{kind}: missing field {name!r}")
            continue
        value = message[name]
        if isinstance(value, bool) and bool not in types or not isinstance(value, types):
            wanted = " or ".join("null" if t is type(None) else t.__name__ for t in types)
            raise ProtocolError(BAD_FIELD, f"{kind}: field {name!r} must be {wanted}")
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 1 << 62:
            raise ProtocolError(BAD_FIELD, f"{kind}: field {name!r} is out of range")
    return message


def join_version(text: str | bytes) -> int | None:
    """The ``protocol`` of a ``join``/``rejoin`` that may not fit this version's schema, else None.

    ``type`` and ``protocol`` keep their meaning in every version, so a client of any version is told that the
    versions differ rather than that its message is malformed."""
    try:
        message = json.loads(text)
    except (ValueError, RecursionError, UnicodeDecodeError):
        return None
    if not isinstance(message, dict) or message.get("type") not in ("join", "rejoin"):
        return None
    version = message.get("protocol")
    return version if isinstance(version, int) and not isinstance(version, bool) else None


def mismatch(version: Any, app: Any) -> dict[str, Any]:
    """The ``refused`` message for a client of another protocol version."""
    text = (f"the host speaks protocol {PROTOCOL_VERSION} (cardtable {app_version()}), you speak protocol "
            f"{version} (cardtable {str(app)[:40]}): update one of them")
    return {"type": "refused", "reason": PROTOCOL_MISMATCH, "host_protocol": PROTOCOL_VERSION,
            "host_app": app_version(), "message": text}


def new_code() -> str:
    """A fresh table code (6 characters of :data:`CODE_ALPHABET`, from the system's secure random source)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_token() -> str:
    """A fresh rejoin token for one seat."""
    return secrets.token_hex(16)


def normalize_code(code: str) -> str:
    """A typed table code in canonical form (case and spaces do not matter)."""
    return "".join(code.split()).upper()


def clean_name(name: str) -> str:
    """A player's name as shown to the table: printable, at most :data:`NAME_LIMIT` characters."""
    text = "".join(ch for ch in name if ch.isprintable()).strip()
    return text[:NAME_LIMIT] or "Player"


def app_version() -> str:
    """The installed cardtable version, or ``"dev"`` when running from a source tree."""
    try:
        from importlib.metadata import PackageNotFoundError, version

        return version("cardtable")
    except (ImportError, PackageNotFoundError, ValueError):
        return "dev"
