"""Typed rejections. Each carries one code of the conformance contract.

>>> try:
...     raise IllegalCard("7H may not follow 9S")
... except RuleError as e:
...     print(e.code, e)
illegal_card 7H may not follow 9S
"""

from __future__ import annotations


class RuleError(Exception):
    """An action the rules refuse. A refused action changes no state."""

    code = "rule_error"


class BadRequest(RuleError):
    """Malformed: unknown action or card name, a missing or superfluous suit or colour."""

    code = "bad_request"


class RoundOver(RuleError):
    code = "round_over"


class NotYourTurn(RuleError):
    code = "not_your_turn"


class IllegalAction(RuleError):
    """The action is not available now."""

    code = "illegal_action"


class CardNotInHand(RuleError):
    code = "card_not_in_hand"


class IllegalCard(RuleError):
    """The card is in the hand but may not be played now."""

    code = "illegal_card"


CODES = tuple(c.code for c in (BadRequest, RoundOver, NotYourTurn, IllegalAction, CardNotInHand, IllegalCard))
