"""Typed rejections. Each carries one code of the conformance contract.

>>> try:
...     raise IllegalCard("7H may not follow 9S")
... except RuleError as e:
...     print(e.code, e)
illegal_card 7H may not follow 9S
"""

from __future__ import annotations

from services.runtime.refusals import Code


class RuleError(Exception):
    """An action the rules refuse. A refused action changes no state."""

    code = Code.RULE_ERROR


class BadRequest(RuleError):
    """Malformed: unknown action or card name, a missing or superfluous suit or colour."""

    code = Code.BAD_REQUEST


class RoundOver(RuleError):
    code = Code.ROUND_OVER


class NotYourTurn(RuleError):
    code = Code.NOT_YOUR_TURN


class IllegalAction(RuleError):
    """The action is not available now."""

    code = Code.ILLEGAL_ACTION


class CardNotInHand(RuleError):
    code = Code.CARD_NOT_IN_HAND


class IllegalCard(RuleError):
    """The card is in the hand but may not be played now."""

    code = Code.ILLEGAL_CARD


CODES = tuple(c.code for c in (BadRequest, RoundOver, NotYourTurn, IllegalAction, CardNotInHand, IllegalCard))
