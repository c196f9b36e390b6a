"""The payload layout table: the single source of truth for every message.

Each row is ``(type, NAME, direction, "field:type field:type ...")``. Field types are little-endian:

==========  ===============================================================
``u8``      unsigned 8-bit          ``u16`` / ``u32``  unsigned 16 / 32-bit
``i32``     signed 32-bit           ``bytes8``         8 raw bytes
``str``     u8 length + that many UTF-8 bytes (at most 32)
``u16[3]``  fixed array of 3 × u16  ``u32[8]``         fixed array of 8 × u32
==========  ===============================================================

Type ranges: host commands 0x01–0x3F; device replies are ``command | 0x80`` and start with ``status:u8``
(fields after ``status`` are present only when status is OK); device events 0x40–0x7F start with
``event_no:u32``; 0xFF is the NAK sent for an unknown command. :mod:`firmware_bridge.protocol.messages`
builds its codecs from this table and :func:`firmware_bridge.protocol.cheader.c_header` emits a C header
from it, so firmware and host never disagree.
"""

from __future__ import annotations

from enum import IntEnum

HOST, DEVICE = "host", "device"

#: type, name, sender, fields
TABLE: tuple[tuple[int, str, str, str], ...] = (
    # -- every device ----------------------------------------------------------------------------
    (0x01, "HELLO", HOST, "proto_version:u8 flags:u8"),
    (0x81, "HELLO_REPLY", DEVICE,
     "status:u8 proto_version:u8 kind:u8 fw_major:u8 fw_minor:u8 fw_patch:u8 unique_id:bytes8"
     " capabilities:u16 max_payload:u16 boot_id:u32 reset_cause:u8 last_event_no:u32 acked_event_no:u32"),
    (0x02, "PING", HOST, ""),
    (0x82, "STATUS", DEVICE, "status:u8 state:u8 flags:u16 pending_events:u8 uptime_ms:u32 cards:u16"),
    (0x03, "READ_METERS", HOST, ""),
    (0x83, "METERS", DEVICE, "status:u8 meters:u32[8]"),
    (0x04, "RESET", HOST, ""),
    (0x84, "RESET_REPLY", DEVICE, "status:u8"),
    (0x05, "EVENT_ACK", HOST, "event_no:u32"),
    # -- shoe ---------------------------------------------------------------------------------------
    (0x10, "DEAL", HOST, ""),
    (0x90, "DEAL_REPLY", DEVICE, "status:u8 event_no:u32"),
    (0x11, "LOAD", HOST, "decks:u8 cut_from_bottom:u16"),
    (0x91, "LOAD_REPLY", DEVICE, "status:u8 cards:u16"),
    # -- shuffler -----------------------------------------------------------------------------------
    (0x20, "SHUFFLE", HOST, "decks:u8"),
    (0xA0, "SHUFFLE_REPLY", DEVICE, "status:u8"),
    (0x21, "VERIFY_DECK", HOST, "expected:u16"),
    (0xA1, "VERIFY_DECK_REPLY", DEVICE, "status:u8"),
    (0x22, "DEAL_HANDS", HOST, "hands:u8 per_hand:u8"),
    (0xA2, "DEAL_HANDS_REPLY", DEVICE, "status:u8"),
    (0x23, "ROLL_DICE", HOST, ""),
    (0xA3, "ROLL_DICE_REPLY", DEVICE, "status:u8 dice:u8[3]"),
    # -- reel display -------------------------------------------------------------------------------
    (0x30, "SPIN", HOST, "stops:u16[3]"),
    (0xB0, "SPIN_REPLY", DEVICE, "status:u8"),
    (0x31, "HOME", HOST, ""),
    (0xB1, "HOME_REPLY", DEVICE, "status:u8"),
    (0x32, "SET_DISPLAY", HOST, "field:u8 value:i32"),
    (0xB2, "SET_DISPLAY_REPLY", DEVICE, "status:u8"),
    # -- events (sequenced, resent until acked) -------------------------------------------------------
    (0x40, "CARD_DEALT", DEVICE, "event_no:u32 code:str"),
    (0x41, "CUT_CARD_REACHED", DEVICE, "event_no:u32 cards_dealt:u16"),
    (0x42, "SHOE_EMPTY", DEVICE, "event_no:u32"),
    (0x43, "JAM", DEVICE, "event_no:u32"),
    (0x44, "JAM_CLEARED", DEVICE, "event_no:u32"),
    (0x45, "DOOR_OPEN", DEVICE, "event_no:u32"),
    (0x46, "DOOR_CLOSED", DEVICE, "event_no:u32"),
    (0x47, "SHUFFLE_COMPLETE", DEVICE, "event_no:u32 count:u16"),
    (0x48, "DECK_VERIFIED", DEVICE, "event_no:u32 ok:u8 expected:u16 counted:u16"),
    (0x49, "HAND_DEALT", DEVICE, "event_no:u32 hand:u8 cards:u8"),
    (0x4A, "REEL_STOPPED", DEVICE, "event_no:u32 reel:u8 position:u16"),
    (0x4B, "REEL_HOME_FAILED", DEVICE, "event_no:u32 reel:u8"),
    (0x4C, "QUEUE_OVERFLOW", DEVICE, "event_no:u32 dropped:u16"),
    # -- errors -------------------------------------------------------------------------------------
    (0xFF, "NAK", DEVICE, "status:u8 rejected_type:u8"),
)

EVENT_RANGE = range(0x40, 0x80)
REPLY_BIT = 0x80
HELLO_NEW_SESSION = 0x01  # HELLO flags bit 0: a new host session, forget the cached reply
MAX_STR = 32


class DeviceKind(IntEnum):
    SHOE = 1
    SHUFFLER = 2
    REELS = 3


class Status(IntEnum):
    OK = 0
    UNKNOWN_COMMAND = 1
    BAD_PAYLOAD = 2
    BUSY = 3
    EMPTY = 4
    JAMMED = 5
    DOOR_OPEN = 6
    NOT_HOMED = 7
    BAD_STATE = 8
    QUEUE_FULL = 9
    NEED_HELLO = 10  # the device booted and has not been greeted: send HELLO, then the command again


class DeviceState(IntEnum):
    IDLE = 0
    BUSY = 1
    FAULT = 2
    SAFE = 3  # heartbeat lost: motors stopped, counters kept


class StatusFlag(IntEnum):
    DOOR_OPEN = 0x0001
    JAMMED = 0x0002
    EMPTY = 0x0004
    CUT_CARD_OUT = 0x0008
    HOMED = 0x0010
    LINK_LOST = 0x0020


class Capability(IntEnum):
    READS_CARDS = 0x0001
    CUT_CARD = 0x0002
    DOOR_SENSOR = 0x0004
    DICE_RNG = 0x0008
    DECK_VERIFY = 0x0010
    HAND_DEAL = 0x0020
    REELS3 = 0x0040


class ResetCause(IntEnum):
    POWER_ON = 0
    WATCHDOG = 1
    BROWN_OUT = 2
    HOST_REQUEST = 3
    SOFTWARE = 4


#: Names of the eight non-volatile meters returned by READ_METERS, per device kind.
METER_NAMES: dict[DeviceKind, tuple[str, ...]] = {
    DeviceKind.SHOE: ("cards_dealt", "cards_misread", "shoes_loaded", "cut_cards", "jams", "door_opens",
                      "resets", "commands"),
    DeviceKind.SHUFFLER: ("shuffles", "cards_shuffled", "verifications", "verify_failures", "hands_dealt",
                          "dice_rolls", "jams", "resets"),
    DeviceKind.REELS: ("spins", "reel_stops", "home_failures", "display_updates", "door_opens", "jams",
                       "resets", "commands"),
}

#: SET_DISPLAY field numbers for the reel display's meters (H7).
DISPLAY_FIELDS: dict[str, int] = {
    "credits": 0, "bet": 1, "paid": 2, "free_spins": 3, "progressive": 4, "loss_meter": 5,
}
