"""``State.draw``: one card from the stock (its common path) as any number of cards, logged alike."""

from __future__ import annotations

from services.rules.engine import new_match, start_round
from services.rules.state import State


def _table() -> State:
    s = new_match("classic52", 2)
    start_round(s, 1, 0, [["2C", "3C", "4C"], ["2D", "3D", "4D"]], "5H", ["6H", "7H"], seed="ab" * 32)
    s.draw_log = []
    return s


def test_one_card_is_the_stock_top_and_is_logged() -> None:
    s = _table()
    top = s.stock[-1]
    assert s.draw(0, 1) == [top]
    assert s.hands[0][-1] == top and top not in s.stock
    assert s.draw_log == [(0, [top])]


def test_one_card_and_a_pair_draw_alike() -> None:
    one, two = _table(), _table()
    got = one.draw(1, 1) + one.draw(1, 1)
    assert got == two.draw(1, 2)
    assert (one.hands, one.stock, one.discard) == (two.hands, two.stock, two.discard)
    assert [c for _, cards in one.draw_log or [] for c in cards] == (two.draw_log or [])[0][1]


def test_an_empty_stock_is_reshuffled_for_one_card_too() -> None:
    s = _table()
    s.draw(0, 2)
    s.discard += [s.hands[0].pop(0), s.hands[0].pop(0)]  # two cards under the top
    s.discard.append(s.discard.pop(0))
    got = s.draw(1, 1)
    assert len(got) == 1 and s.reshuffles == 1 and len(s.stock) == 1 and len(s.discard) == 1
    assert s.draw_log is not None and s.draw_log[-1] == (1, got)


def test_nothing_to_draw_is_an_empty_draw_logged() -> None:
    s = _table()
    s.draw(0, 2)
    assert s.draw(1, 1) == [] and s.draw_log is not None and s.draw_log[-1] == (1, [])
