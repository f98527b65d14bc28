"""The turn machinery shared by every ruleset: what is legal, and what an action does.

``check`` refuses an action with a typed error (in the precedence order of the
conformance contract) and changes nothing; ``apply`` carries out an action that
``check`` accepted, in place; ``legal_actions`` yields exactly the actions ``check``
accepts (announcements and suit choices spelled the one canonical way).

>>> s = new_match("classic32", 2)
>>> start_round(s, dealer=1, first=0, hands=[["7H", "9S"], ["8H", "KD"]], starter="9H", stock=["AC"])
>>> sorted(action_to_dict(a, FRENCH)["do"] + " " + action_to_dict(a, FRENCH).get("card", "")
...        for a in legal_actions(s, 0))
['draw ', 'play 7H', 'play 7H', 'play 9S', 'play 9S']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from services.rules.actions import (
    BURN,
    CHALLENGE,
    CHALLENGE_WILD,
    CHOOSE,
    DOUBLE,
    DRAW,
    MAU,
    MAUMAU,
    PASS,
    PLAY,
    QUICK,
    Action,
    action_to_dict,
    takes_choice,
)
from services.rules.cards import FRENCH, R8, WILD
from services.rules.errors import BadRequest, CardNotInHand, IllegalAction, IllegalCard, NotYourTurn, RoundOver
from services.rules.phases import BOUNCE, BURNED, DRAWN, NORMAL, WILD4, Pending, Phase
from services.rules.phases import CHOOSE as CHOOSING
from services.rules.rulesets import AUTOMATIC, CHALLENGE_MODE, NEXT_PLAYER, Ruleset, make_ruleset
from services.rules.state import State

__all__ = ["FRENCH", "State", "action_to_dict", "apply", "check", "legal_actions", "new_match", "start_round"]


def new_match(ruleset: str | Ruleset, seats: int, options: dict[str, Any] | None = None,
              scores: list[int] | None = None, rounds_played: int = 0) -> State:
    """A table's match before its first deal."""
    rs = ruleset if isinstance(ruleset, Ruleset) else make_ruleset(ruleset, options or {})
    rs.check_seats(seats)
    return State(rs, seats, scores, rounds_played)


def start_round(s: State, dealer: int, first: int, hands: Sequence[Sequence[str | int]],
                starter: str | int, stock: Sequence[str | int], seed: str | None = None) -> None:
    """Lay a deal out (stock listed from its top) and apply the starter; starts a new match when the last one ended.

    In a tie-break round only the tied seats play; the others are dealt nothing.
    """
    rs = s.rs
    if s.match_over:
        s.scores = [0] * s.n
        s.rounds_played = 0
        s.match_over = False
        s.match_winners = []
        s.tiebreak = []
    fam = rs.family

    def cards(xs: Sequence[str | int]) -> list[int]:
        return [x if isinstance(x, int) else fam.parse(x) for x in xs]

    s.reset_round()
    s.active = [not s.tiebreak or i in s.tiebreak for i in range(s.n)]
    s.hands = [cards(h) for h in hands]
    s.stock = cards(stock)[::-1]
    s.discard = cards([starter])
    s.seed = seed
    s.reshuffles = 0
    s.round_over = False
    s.round_points = None
    s.round_winner = -1
    s.dealer, s.first = dealer, first
    while rs.starter_returns(s.discard[-1]) and s.stock:
        s.stock.insert(0, s.discard.pop())
        s.discard.append(s.stock.pop())
    s.turn = first
    top = s.discard[-1]
    s.follow = top >> 4 if top >> 4 != WILD else -1
    rs.starter_effect(s)


def may_join_late(s: State) -> bool:
    """Whether a newcomer may take a seat now, between rounds of a match under way."""
    rs = s.rs
    return (s.round_over and not s.match_over and s.rounds_played < rs.late_join_rounds
            and s.n < rs.max_seats and not s.tiebreak)


def add_player(s: State) -> int:
    """Seat a late joiner (see ``may_join_late``); they start with the highest total at the table."""
    s.n += 1
    s.hands.append([])
    s.active.append(True)
    s.scores.append(max(s.scores))
    return s.n - 1


def winners_without(s: State, leaving: int) -> list[int]:
    """The winners of a match that ``leaving`` abandons: whoever leads among the others (the other team)."""
    rs = s.rs
    others = [i for i in range(s.n) if i != leaving and (not rs.teams or i % 2 != leaving % 2)]
    return rs.leaders(s.scores, others)


def auto_action(s: State, seat: int) -> Action:
    """What the system plays for a seat whose turn time ran out (seed 002, "a jogada é feita pelo sistema").

    It draws (or takes the pending draw), or passes when the turn allows nothing else; only
    where neither is allowed does it play: the cheapest card, a Jack or wild last, with the
    call when one is needed and the suit the hand holds most of.
    """
    legal = list(legal_actions(s, seat))
    by_kind = {a.kind: a for a in legal}
    for kind in (DRAW, PASS):
        if kind in by_kind:
            return by_kind[kind]
    hand = s.hands[seat]
    counts = [sum(1 for c in hand if c >> 4 == suit) for suit in range(4)]
    rs = s.rs

    def cost(a: Action) -> tuple[int, int, int, int]:
        return (a.kind not in (PLAY, CHOOSE), rs.chooses[a.card] if a.card >= 0 else 0,
                rs.points[a.card] if a.card >= 0 else 0, -counts[a.choose] if a.choose >= 0 else 0)

    announced = [a for a in legal if a.announce is not None or required_call_for(s, a) is None]
    return min(announced or legal, key=cost)


def required_call_for(s: State, a: Action) -> str | None:
    """The call ``a`` needs, if any."""
    n = len(s.hands[a.seat])
    if a.kind == PLAY:
        return required_call(s, a.seat, a.card, n, n - 1)
    if a.kind == DOUBLE:
        return required_call(s, a.seat, a.card, n, n - 2)
    if a.kind in (BURN, QUICK):
        return _plain_call(s, a.card, n - 1)
    return None


# --- checking ---------------------------------------------------------------------------


def _playable(s: State, seat: int) -> list[int]:
    """The distinct cards the seat on turn may play in its current phase."""
    phase = s.phase
    if phase in (NORMAL, BURNED):
        return s.rs.playable_cards(s, set(s.hands[seat]))
    if phase == DRAWN:
        if s.rs.after_draw_any:
            return s.rs.playable_cards(s, set(s.hands[seat]))
        c = s.drawn_card
        return s.rs.playable_cards(s, (c,)) if c >= 0 else []
    if phase == BOUNCE:
        return [c for c in set(s.hands[seat]) if c & 15 == R8]
    return []


def _may_pass(s: State, seat: int, playable: list[int]) -> bool:
    phase = s.phase
    if phase == NORMAL:
        return not s.pending and not playable and not s.can_draw()
    if phase == BURNED:  # without a continuation the burner must draw
        return bool(playable)
    return phase != CHOOSING


def _may_draw(s: State, playable: list[int]) -> bool:
    phase = s.phase
    if phase == NORMAL:
        return s.rs.draw_anytime or not playable
    return phase == BURNED and not playable


def _burnable(s: State, card: int) -> bool:
    top = s.discard[-1]
    return not s.pending and card == top and not s.rs.special(top)


def check(s: State, a: Action) -> None:
    """Raise the rule error that refuses ``a`` in ``s``, or return when it is legal. Changes nothing."""
    rs, kind, seat = s.rs, a.kind, a.seat
    if not 0 <= seat < s.n or (kind == CHALLENGE and not 0 <= a.target < s.n):
        raise BadRequest("no such seat")
    if s.round_over:
        raise RoundOver("the round is over")
    if kind == CHALLENGE:
        _check_challenge(s, a)
        return
    if kind == QUICK:
        if not rs.has_burns or s.quick_from < 0 or seat in (s.quick_from, s.turn) or not s.active[seat]:
            raise IllegalAction("no quick action is open to this seat now")
        if a.card != s.discard[-1] or rs.special(a.card):
            raise IllegalAction("a quick action discards a normal card identical to the top card")
        _in_hand(s, seat, a.card)
        return
    if kind == CHALLENGE_WILD:
        if s.pending_kind != WILD4 or seat != s.turn or s.phase != NORMAL:
            raise IllegalAction("there is no wild draw four to challenge")
        return
    if kind == BURN and seat != s.turn:
        if not rs.has_burns or not s.opening or not s.active[seat]:
            raise IllegalAction("burning out of turn is only allowed on the opening starter")
        if not _burnable(s, a.card):
            raise IllegalAction("a burn needs a normal card identical to the top card")
        _in_hand(s, seat, a.card)
        return
    if seat != s.turn:
        raise NotYourTurn(f"it is seat {s.turn}'s turn")
    phase = s.phase
    if kind == PLAY:
        if phase == CHOOSING:
            raise IllegalAction("the dealer must choose the suit first")
        _in_hand(s, seat, a.card)
        if a.choose < 0 and takes_choice(a.card, rs.family) and len(s.hands[seat]) > 1:
            raise BadRequest("QUAL NAIPE? a Jack or a wild needs a suit or colour")
        if a.card not in _playable(s, seat):
            raise IllegalCard(f"{rs.family.name(a.card)} may not be played now")
    elif kind == DRAW:
        if not _may_draw(s, _playable(s, seat)):
            raise IllegalAction("drawing is not allowed now")
    elif kind == PASS:
        if not _may_pass(s, seat, _playable(s, seat)):
            raise IllegalAction("passing is not allowed now")
    elif kind == CHOOSE:
        if phase != CHOOSING:
            raise IllegalAction("there is no suit to choose")
    elif kind == BURN:
        if not rs.has_burns or phase != NORMAL:
            raise IllegalAction("burning is not allowed now")
        if not _burnable(s, a.card):
            raise IllegalAction("a burn needs a normal card identical to the top card")
        _in_hand(s, seat, a.card)
    elif kind == DOUBLE:
        if not rs.has_burns or phase not in (NORMAL, DRAWN):
            raise IllegalAction("a double is not allowed now")
        if a.card != a.card2:
            raise IllegalAction("a double is two identical cards")
        if s.hands[seat].count(a.card) < 2:
            raise CardNotInHand("a double needs both cards in the hand")
        if rs.special(a.card) or not rs.playable(s, a.card):
            raise IllegalCard(f"{rs.family.name(a.card)} may not be doubled now")


def _in_hand(s: State, seat: int, card: int) -> None:
    if card not in s.hands[seat]:
        raise CardNotInHand(f"{s.rs.family.name(card)} is not in the hand")


def _check_challenge(s: State, a: Action) -> None:
    mode = s.rs.announce_mode
    if a.kind == CHALLENGE and mode != AUTOMATIC and s.mau_offender == a.target and a.seat != a.target:
        if mode == CHALLENGE_MODE and s.active[a.seat]:
            return
        if mode == NEXT_PLAYER and a.seat == s.mau_guard:
            return
    raise IllegalAction("nothing to challenge")


# --- applying ---------------------------------------------------------------------------


def apply(s: State, a: Action) -> None:
    """Carry out an action that ``check`` accepts, changing ``s`` in place."""
    kind, seat = a.kind, a.seat
    if s.mau_offender >= 0 and seat == s.mau_guard and kind != CHALLENGE and s.rs.announce_mode == NEXT_PLAYER:
        s.mau_offender = -1
    if s.quick_from >= 0 and seat == s.turn:
        s.quick_from = -1
    if kind == PLAY:
        _play(s, seat, a.card, a.choose, a.announce)
    elif kind == DRAW:
        _draw(s, seat)
    elif kind == PASS:
        _pass(s, seat)
    elif kind == CHALLENGE:
        _challenge(s, a.target)
    elif kind == CHALLENGE_WILD:
        _challenge_wild(s, seat)
    elif kind == CHOOSE:
        s.follow = a.choose
        s.phase = NORMAL
        s.turn = s.first
    elif kind == BURN:
        _burn(s, seat, a.card, a.announce)
    elif kind == QUICK:
        _quick(s, seat, a.card, a.announce)
    elif kind == DOUBLE:
        _double(s, seat, a.card, a.announce)


def required_call(s: State, seat: int, card: int, before: int, after: int) -> str | None:
    """The call an action needs: "mau" when it leaves one card, "maumau" when the ruleset wants one going out."""
    rs = s.rs
    if s.phase == BURNED and s.burn_announced:
        return None
    if after == 1:
        return MAU
    if after == 0 and (before == 2 or rs.needs_mau_mau(card)):
        return MAUMAU
    return None


def _announced(s: State, required: str | None, given: str | None) -> bool:
    return required is None or given == required or (given is not None and s.rs.single_call)


def _play(s: State, seat: int, card: int, choose: int, announce: str | None) -> None:
    rs = s.rs
    hand = s.hands[seat]
    hand.remove(card)
    s.discard.append(card)
    s.stuck = 0
    s.opening = False
    s.last_player = seat
    after = len(hand)
    required = required_call(s, seat, card, after + 1, after)
    ok = _announced(s, required, announce)
    if after == 0 and ok:
        s.follow = choose if choose >= 0 else (card >> 4 if card >> 4 != WILD else s.follow)
        if s.finisher >= 0 and not s.hands[s.finisher]:  # someone went out before: the first one out wins
            _finish(s, s.finisher)
            return
        nxt = rs.go_out(s, seat, card, choose)
        if nxt < 0:
            _finish(s, seat)
        else:
            _end_turn(s, nxt, NORMAL)
        return
    nxt, phase = rs.effect(s, seat, card, choose)
    _after_card(s, seat, nxt, phase, ok, opens_quick=rs.has_burns and not rs.special(card))


def _after_card(s: State, seat: int, nxt: int, phase: Phase, announced: bool, opens_quick: bool) -> None:
    """Penalty or challenge window for a missed call, then hand the turn over."""
    rs = s.rs
    if not announced and rs.announce_mode == AUTOMATIC:
        s.draw(seat, rs.mau_penalty)
    _end_turn(s, nxt, phase)
    if s.round_over:
        return
    if not announced and rs.announce_mode != AUTOMATIC:
        s.mau_offender = seat
        s.mau_guard = s.turn
        if not s.hands[seat]:
            s.finisher = seat
            if s.turn == seat:  # skipped everyone: the turn is back with the one who went out
                _finish(s, seat)
                return
    if opens_quick and not s.pending:
        s.quick_from = seat


def _end_turn(s: State, nxt: int, phase: Phase) -> None:
    ender = s.turn
    if s.mau_offender >= 0 and s.mau_guard == ender and s.rs.announce_mode == CHALLENGE_MODE:
        s.mau_offender = -1
        if s.finisher >= 0 and not s.hands[s.finisher]:
            _finish(s, s.finisher)
            return
        s.finisher = -1
    s.turn = nxt
    s.phase = phase
    s.drawn_card = -1
    if nxt == s.finisher:
        _finish(s, nxt)


def _draw(s: State, seat: int) -> None:
    s.opening = False
    if s.pending:
        k = s.pending
        s.pending = s.chain = 0
        s.pending_kind = Pending.NONE
        s.w4_seat = -1
        got = s.draw(seat, k)
        if s.finisher >= 0 and s.rs.announce_mode == AUTOMATIC:
            _finish(s, s.finisher)
            return
        _turn_ends_idle(s, seat, not got)
        return
    got = s.draw(seat, 1)
    s.phase = DRAWN
    s.drawn_card = got[0] if got else -1
    if got:
        s.stuck = 0
    if not _playable(s, seat):
        _turn_ends_idle(s, seat, not got)


def _turn_ends_idle(s: State, seat: int, idle: bool) -> None:
    """End a turn in which no card was played; a table where everyone is stuck in a row is blocked."""
    if idle and not s.can_draw() and not _stuck_has_play(s, seat):
        s.stuck += 1
        if s.stuck >= s.players():
            _finish(s, _blocked_winner(s), blocked=True)
            return
    else:
        s.stuck = 0
    _end_turn(s, s.next_seat(seat), NORMAL)


def _stuck_has_play(s: State, seat: int) -> bool:
    return bool(s.rs.playable_cards(s, set(s.hands[seat])))


def _pass(s: State, seat: int) -> None:
    phase = s.phase
    if phase in (BOUNCE, BURNED):
        s.stuck = 0
        _end_turn(s, s.next_seat(seat), NORMAL)
        return
    _turn_ends_idle(s, seat, phase == NORMAL or s.drawn_card < 0)


def _challenge(s: State, target: int) -> None:
    s.mau_offender = -1
    if s.finisher == target:
        s.finisher = -1
    s.draw(target, s.rs.mau_penalty)


def _challenge_wild(s: State, seat: int) -> None:
    s.pending = s.chain = 0
    s.pending_kind = Pending.NONE
    bluffer = s.w4_seat
    s.w4_seat = -1
    if s.w4_bluff:
        s.draw(bluffer, 4)
    else:
        s.draw(seat, 6)
        _end_turn(s, s.next_seat(seat), NORMAL)


def _burn(s: State, seat: int, card: int, announce: str | None) -> None:
    hand = s.hands[seat]
    hand.remove(card)
    s.discard.append(card)
    s.turn = seat
    s.opening = False
    s.stuck = 0
    s.last_player = seat
    after = len(hand)
    ok = _announced(s, _plain_call(s, card, after), announce)
    if after == 0 and ok:
        _finish(s, seat)
        return
    if not ok:
        s.draw(seat, s.rs.mau_penalty)
    s.phase = BURNED
    s.burn_announced = announce is not None


def _quick(s: State, seat: int, card: int, announce: str | None) -> None:
    hand = s.hands[seat]
    hand.remove(card)
    s.discard.append(card)
    s.quick_from = -1
    s.stuck = 0
    after = len(hand)
    ok = _announced(s, _plain_call(s, card, after), announce)
    if after == 0 and ok:
        _finish(s, seat)
    elif not ok:
        s.draw(seat, s.rs.mau_penalty)


def _double(s: State, seat: int, card: int, announce: str | None) -> None:
    hand = s.hands[seat]
    hand.remove(card)
    hand.remove(card)
    s.discard.append(card)
    s.discard.append(card)
    s.stuck = 0
    s.opening = False
    s.last_player = seat
    after = len(hand)
    ok = _announced(s, required_call(s, seat, card, after + 2, after), announce)
    s.follow = card >> 4
    if after == 0 and ok:
        _finish(s, seat)
        return
    _after_card(s, seat, s.next_seat(seat), NORMAL, ok, opens_quick=True)


def _blocked_winner(s: State) -> int:
    """Fewest hand points, then fewest cards, then whoever would play first."""
    order = []
    seat = s.next_seat(s.turn)  # the one who would play after the last pass
    for _ in range(s.players()):
        order.append(seat)
        seat = s.next_seat(seat)
    pts = s.rs.hand_points
    return min(order, key=lambda i: (pts(s.hands[i]), len(s.hands[i]), order.index(i)))


def _finish(s: State, winner: int, blocked: bool = False) -> None:
    rs = s.rs
    s.round_over = True
    s.turn = -1
    s.round_winner = winner
    s.pending = s.chain = 0
    s.pending_kind = Pending.NONE
    s.quick_from = s.mau_offender = s.finisher = -1
    s.phase = NORMAL
    pts = rs.score_round(s, winner, blocked)
    s.round_points = pts
    s.scores = [a + b for a, b in zip(s.scores, pts, strict=True)]
    s.rounds_played += 1
    rs.end_match(s, winner)


# --- legal actions ----------------------------------------------------------------------


_new = tuple.__new__  # builds an Action without NamedTuple's Python-level __new__ (the hot path)


def legal_actions(s: State, seat: int) -> Iterator[Action]:
    """Every action ``seat`` may take now, each once (announcements and choices canonical)."""
    if s.round_over or not s.active[seat]:
        return
    rs = s.rs
    hand = s.hands[seat]
    n_hand = len(hand)
    mode = rs.announce_mode
    if s.mau_offender >= 0 and seat != s.mau_offender and (
        mode == CHALLENGE_MODE or (mode == NEXT_PLAYER and seat == s.mau_guard)
    ):
        yield Action(CHALLENGE, seat, target=s.mau_offender)
    top = s.discard[-1]
    if rs.has_burns and seat != s.turn and top in hand and (
        (s.quick_from >= 0 and seat != s.quick_from) or (s.opening and _burnable(s, top))
    ):
        kind = QUICK if s.quick_from >= 0 else BURN
        for call in _burn_calls(s, top, n_hand):
            yield Action(kind, seat, top, announce=call)
    if seat != s.turn:
        return
    phase = s.phase
    if phase == CHOOSING:
        for suit in range(4):
            yield Action(CHOOSE, seat, choose=suit)
        return
    playable = _playable(s, seat)
    if n_hand > 2:
        for card in playable:
            if rs.chooses[card]:
                for suit in range(4):
                    yield _new(Action, (PLAY, seat, card, suit, None, -1, -1))
            else:
                yield _new(Action, (PLAY, seat, card, -1, None, -1, -1))
    else:
        for card in playable:
            required = required_call(s, seat, card, n_hand, n_hand - 1)
            calls = (None,) if required is None else (required, None)
            suits = range(4) if n_hand > 1 and rs.chooses[card] else (-1,)
            for suit in suits:
                for call in calls:
                    yield Action(PLAY, seat, card, suit, call)
    if _may_draw(s, playable):
        yield _new(Action, (DRAW, seat, -1, -1, None, -1, -1))
    if _may_pass(s, seat, playable):
        yield _new(Action, (PASS, seat, -1, -1, None, -1, -1))
    if phase == NORMAL:
        if s.pending_kind == WILD4:
            yield Action(CHALLENGE_WILD, seat)
        if rs.has_burns and top in hand and _burnable(s, top):
            for call in _burn_calls(s, top, n_hand):
                yield Action(BURN, seat, top, announce=call)
    if rs.has_burns and phase in (NORMAL, DRAWN):
        for card in rs.playable_cards(s, set(hand)):
            if not rs.special(card) and hand.count(card) >= 2:
                required = required_call(s, seat, card, n_hand, n_hand - 2)
                for call in (None,) if required is None else (required, None):
                    yield Action(DOUBLE, seat, card, announce=call, card2=card)


def _plain_call(s: State, card: int, after: int) -> str | None:
    """The call a burn or a quick action needs, which leaves ``after`` cards."""
    if after == 1:
        return MAU
    return MAUMAU if after == 0 and s.rs.needs_mau_mau(card) else None


def _burn_calls(s: State, card: int, n_hand: int) -> tuple[str | None, ...]:
    required = _plain_call(s, card, n_hand - 1)
    return (None,) if required is None else (required, None)
