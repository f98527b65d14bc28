"""A command refused: its code says why, its message says it to a person. Nothing was stored.

Every code a service, the rules or the gateway may answer is one ``Code``: the client has words for
each (``gateway/static/i18n/errors.*.js``; a test holds the two together), and the wire carries
its plain value.

>>> str(Refused(Code.NOT_SEATED, "only the players seated at this table may do that"))
'only the players seated at this table may do that'
>>> Refused(Code.NOT_SEATED, "").code == "not_seated"
True
"""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    ACCOUNT_NEEDED = "account_needed"
    ALREADY_REGISTERED = "already_registered"
    ALREADY_WAITING = "already_waiting"
    ANNULLED = "annulled"
    BAD_AVATAR = "bad_avatar"
    BAD_COMMAND = "bad_command"
    BAD_CREDENTIALS = "bad_credentials"
    BAD_FRAME = "bad_frame"
    BAD_INVITATION = "bad_invitation"
    BAD_MATCH = "bad_match"
    BAD_NAME = "bad_name"
    BAD_OPTIONS = "bad_options"
    BAD_ORIGIN = "bad_origin"
    BAD_PASSWORD = "bad_password"
    BAD_REACTION = "bad_reaction"
    BAD_REQUEST = "bad_request"
    BAD_SEAT = "bad_seat"
    BAD_VERDICT = "bad_verdict"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    CHIPS_RESERVED = "chips_reserved"
    CONFLICT_RETRY_EXHAUSTED = "conflict_retry_exhausted"
    CREATOR_STAYS = "creator_stays"
    DISPUTE_CLOSED = "dispute_closed"
    DISPUTE_EXISTS = "dispute_exists"
    EMPTY = "empty"
    GUEST_TAKEN = "guest_taken"
    ILLEGAL_ACTION = "illegal_action"
    ILLEGAL_CARD = "illegal_card"
    MATCH_IN_PLAY = "match_in_play"
    MATCH_STARTED = "match_started"
    NAME_TAKEN = "name_taken"
    NO_ACCOUNT = "no_account"
    NO_BOTS = "no_bots"
    NO_MATCH = "no_match"
    NO_PENALTY = "no_penalty"
    NO_REMATCH = "no_rematch"
    NO_SESSION = "no_session"
    NO_SIGNING_KEY = "no_signing_key"
    NO_TURN_TIMER = "no_turn_timer"
    NOT_ABANDONED = "not_abandoned"
    NOT_ABSENT = "not_absent"
    NOT_AT_TABLE = "not_at_table"
    NOT_CREATOR = "not_creator"
    NOT_DUE = "not_due"
    NOT_ENOUGH_CHIPS = "not_enough_chips"
    NOT_ENOUGH_PLAYERS = "not_enough_players"
    NOT_EXPIRED = "not_expired"
    NOT_PLAYING = "not_playing"
    NOT_SEATED = "not_seated"
    NOT_STAFF = "not_staff"
    NOT_YOUR_TURN = "not_your_turn"
    PASSWORD_CONTROL_CHARACTERS = "password_control_characters"
    PASSWORD_HAS_NAME = "password_has_name"
    ROUND_IN_PLAY = "round_in_play"
    ROUND_OVER = "round_over"
    RULE_ERROR = "rule_error"
    SESSION_ENDED = "session_ended"
    STAFF_SEATED = "staff_seated"
    STALE_PRESENCE = "stale_presence"
    STALE_TIMER = "stale_timer"
    TABLE_CLOSED = "table_closed"
    TABLE_EXISTS = "table_exists"
    TABLE_FULL = "table_full"
    TOKEN_IN_URL = "token_in_url"
    TOO_FAST = "too_fast"
    TOO_LARGE = "too_large"
    TOO_LONG = "too_long"
    TOO_MANY_REQUESTS = "too_many_requests"
    TOO_MANY_SOCKETS = "too_many_sockets"
    TOO_MANY_TABLES = "too_many_tables"
    UNAVAILABLE = "unavailable"
    UNKNOWN_DISPUTE = "unknown_dispute"
    UNKNOWN_PLAYER = "unknown_player"
    UNKNOWN_TABLE = "unknown_table"
    UNKNOWN_TICKET = "unknown_ticket"
    WEAK_PASSWORD = "weak_password"
    WRONG_SEAT = "wrong_seat"


INTERNAL = frozenset({
    Code.NO_TURN_TIMER, Code.NOT_ABANDONED, Code.NOT_DUE,
    Code.NOT_EXPIRED, Code.STALE_PRESENCE, Code.STALE_TIMER,
})
"""The codes only the clock meets (a timer or a presence note the table moved past): no person is told them."""


class Refused(Exception):
    """A command a service refuses; it appends nothing."""

    def __init__(self, code: Code, message: str):
        super().__init__(message)
        self.code = code
