"""Passwords: checked for strength, stored as Argon2id hashes, verified in the same time with or without an account.

A new password (an account's first, or a change) is refused when it is too short or too
long, holds a control character (a NUL, a tab: what no keyboard types by mistake, and what
some tools cut a password at), holds the account's name, or is easy to guess as zxcvbn
estimates it (score under 3: fewer than some 10⁸ guesses, what a dictionary, a keyboard walk,
a date or a repetition finds). Each refusal has its own code, which the web client words.

>>> check("correct horse battery", "Ana")
'correct horse battery'
>>> for weak in ("password", "12345678", " " * 8, "seg\\x00redo forte", "ana maria 1990", "Ana Maria"):
...     try:
...         check(weak, "Ana Maria")
...     except Refused as refused:
...         print(refused.code)
weak_password
weak_password
weak_password
password_control_characters
password_has_name
password_has_name

Hashing costs some 50 ms of CPU and 64 MiB (argon2-cffi's defaults, RFC 9106's second
recommended profile): the calls run in a worker thread, so the service's loop keeps answering.

>>> hashed = hash_password("correct horse")
>>> hashed.startswith("$argon2id$"), verify(hashed, "correct horse"), verify(hashed, "wrong horse")
(True, True, False)
>>> verify("", "anything")  # no account: a dummy hash is verified, the answer is no
False
"""

from __future__ import annotations

import functools
import threading
import unicodedata

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from zxcvbn import zxcvbn

from services.accounts.names import normalise
from services.runtime.refusals import Code, Refused

MIN_CHARS, MAX_CHARS = 8, 256
MIN_SCORE = 3  # zxcvbn's "safely unguessable": some 10⁸ guesses and more
ESTIMATED_CHARS = 64  # zxcvbn's time grows fast with length (0.1 s at 64, 0.6 s at 72): the rest is not estimated
NAME_IN_PASSWORD_CHARS = 3  # a shorter name is in too many words to refuse them all (zxcvbn still discounts it)
SITE_WORDS = ["maumau", "mau-mau", "mau mau", "baralho"]  # what a guesser of this site's passwords tries first
HASHER = PasswordHasher()  # Argon2id
_ZXCVBN = threading.Lock()  # zxcvbn keeps the user's words in a module global: one estimate at a time


def _bare(text: str) -> str:
    """Text as names are compared (``names.normalise``), its spaces dropped: "Ana Maria" is in "anamaria90"."""
    return normalise(text).replace(" ", "")


def _score(password: str, name: str) -> int:
    with _ZXCVBN:
        return int(zxcvbn(password[:ESTIMATED_CHARS], user_inputs=[name, *name.split(), *SITE_WORDS])["score"])


def check(password: str, name: str) -> str:
    """The password if it may be the account ``name``'s (estimating takes up to 0.1 s of CPU: call it in a thread)."""
    if not MIN_CHARS <= len(password) <= MAX_CHARS:
        raise Refused(Code.BAD_PASSWORD, f"a password has {MIN_CHARS} to {MAX_CHARS} characters")
    if any(unicodedata.category(ch) == "Cc" for ch in password):
        raise Refused(Code.PASSWORD_CONTROL_CHARACTERS, "a password has no control characters (NUL, tab, new line)")
    bare_name = _bare(name)
    if len(bare_name) >= NAME_IN_PASSWORD_CHARS and bare_name in _bare(password):
        raise Refused(Code.PASSWORD_HAS_NAME, "a password does not hold the account's name")
    if _score(password, name) < MIN_SCORE:
        raise Refused(Code.WEAK_PASSWORD, "this password is easy to guess: a few uncommon words together are not")
    return password


def hash_password(password: str) -> str:
    return HASHER.hash(password)


def checked_hash(password: str, name: str) -> str:
    """The hash of a new password for the account ``name``, once it is checked (one trip to a worker thread)."""
    return hash_password(check(password, name))


@functools.cache
def _dummy() -> str:
    return HASHER.hash("not the password of anyone")


def verify(hashed: str, password: str) -> bool:
    """Whether ``password`` is the one ``hashed`` was made from; ``""`` (no account) costs the same and says no."""
    try:
        return HASHER.verify(hashed or _dummy(), password) and bool(hashed)
    except (VerificationError, InvalidHashError):
        return False
