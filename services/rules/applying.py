"""``apply``: carry out an action that ``check`` accepted, changing the state in place.

Each kind of action has its step here (a play's in ``apply`` itself); every step that hands the turn on goes through
``_end_turn`` (challenge windows close there) and a round ends only in ``_finish``.
"""

from __future__ import annotations

from services.rules.actions import BURN, CHALLENGE, CHALLENGE_WILD, CHOOSE, DOUBLE, DRAW, PASS, PLAY, QUICK, Action
from services.rules.cards import WILD, Card, Seat, suit
from services.rules.phases import BOUNCE, BURNED, DRAWN, NONE, NORMAL, Phase
from services.rules.rulesets import AUTOMATIC, CHALLENGE_MODE, NEXT_PLAYER
from services.rules.state import State
from services.rules.turn import plain_call, playable_from_hand, playable_now, required_call


def apply(s: State, a: Action) -> None:
    """Carry out an action that ``check`` accepts, changing ``s`` in place."""
    kind, seat, card, choose, announce, target, card2 = a  # one unpacking, not seven attribute reads
    if s.mau_offender >= 0 and seat == s.mau_guard and kind != CHALLENGE and s.rs.announce_mode == NEXT_PLAYER:
        s.mau_offender = -1
    if s.quick_from >= 0 and seat == s.turn:
        s.quick_from = -1
    if kind == PLAY:
        if card2 >= 0:  # an Ace with company: the Ace goes down first, then the card that acts
            s.hands[seat].remove(card)
            s.discard.append(card)
            card = card2
        # the play itself in place, not in a function of its own: a play is most actions, and a
        # call costs about as much as this whole step
        rs = s.rs
        hand = s.hands[seat]
        hand.remove(card)
        s.discard.append(card)
        s.stuck = 0
        s.opening = False
        s.last_player = seat
        after = len(hand)
        # no call is due while two cards or more are left (``required_call``)
        ok = after > 1 or _announced(s, required_call(s, seat, card, after + 1, after), announce)
        if after == 0 and ok:
            s.follow = choose if choose >= 0 else (suit(card) if suit(card) != WILD else s.follow)
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
        if ok and not rs.has_burns:  # no penalty, no challenge, no quick window: the turn moves on
            _end_turn(s, nxt, phase)
        else:
            _after_card(s, seat, nxt, phase, ok, rs.has_burns and not rs.special(card))
    elif kind == DRAW:
        _draw(s, seat)
    elif kind == PASS:
        _pass(s, seat)
    elif kind == CHALLENGE:
        _challenge(s, target)
    elif kind == CHALLENGE_WILD:
        _challenge_wild(s, seat)
    elif kind == CHOOSE:
        s.follow = choose
        s.phase = NORMAL
        s.turn = s.first
    elif kind == BURN:
        _burn(s, seat, card, announce)
    elif kind == QUICK:
        _quick(s, seat, card, announce)
    elif kind == DOUBLE:
        _double(s, seat, card, announce)


def _announced(s: State, required: str | None, given: str | None) -> bool:
    return required is None or given == required or (given is not None and s.rs.single_call)


def _after_card(s: State, seat: Seat, nxt: Seat, phase: Phase, announced: bool, opens_quick: bool) -> None:
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


def _end_turn(s: State, nxt: Seat, phase: Phase) -> None:
    if s.mau_offender >= 0 and s.mau_guard == s.turn and s.rs.announce_mode == CHALLENGE_MODE:
        s.mau_offender = -1
        if s.finisher >= 0 and not s.hands[s.finisher]:
            _finish(s, s.finisher)
            return
        s.finisher = -1
    s.turn = nxt
    s.phase = phase
    s.drawn_card = -1
    s.draws = 0
    if nxt == s.finisher:
        _finish(s, nxt)


def _draw(s: State, seat: Seat) -> None:
    s.opening = False
    if s.pending:
        k = s.pending
        s.pending = s.chain = 0
        s.pending_kind = NONE
        s.w4_seat = -1
        got = s.draw(seat, k)
        if s.finisher >= 0 and s.rs.announce_mode == AUTOMATIC:
            _finish(s, s.finisher)
            return
        _turn_ends_idle(s, seat, not got, paid=len(got) == k)
        return
    c = s.draw_one(seat)
    s.phase = DRAWN
    s.draws += 1
    s.drawn_card = c
    if c >= 0:
        s.stuck = 0
    # nothing to play, nor to draw (asked only where a turn may draw more than once): the turn passes
    if not playable_now(s, seat) and (s.draws >= s.rs.max_draws or not s.rs.may_draw_or_pass(s, [])[0]):
        _turn_ends_idle(s, seat, c < 0)


def _turn_ends_idle(s: State, seat: Seat, idle: bool, paid: bool = True) -> None:
    """End a turn in which no card was played; a table where everyone is stuck in a row is blocked.

    The turn is stuck when it got no card and the seat could do nothing else; with the ruleset's
    ``passes_block``, whenever nothing can be drawn as it ends (but a pending draw that the stock
    could not pay in full: OpenSpiel's crazy_eights counts that as no pass).
    """
    rs = s.rs
    if rs.passes_block:
        stuck = paid and not s.can_draw()
    else:
        stuck = idle and not s.can_draw() and not playable_from_hand(s, seat)
    if stuck:
        s.stuck += 1
        if s.stuck >= rs.blocked_after(s.players()):
            _finish(s, _blocked_winner(s), blocked=True)
            return
    else:
        s.stuck = 0
    _end_turn(s, s.next_seat(seat), NORMAL)


def _pass(s: State, seat: Seat) -> None:
    phase = s.phase
    if phase is BOUNCE or phase is BURNED:
        s.stuck = 0
        _end_turn(s, s.next_seat(seat), NORMAL)
        return
    _turn_ends_idle(s, seat, phase is NORMAL or s.drawn_card < 0)


def _challenge(s: State, target: Seat) -> None:
    s.mau_offender = -1
    if s.finisher == target:
        s.finisher = -1
    s.draw(target, s.rs.mau_penalty)


def _challenge_wild(s: State, seat: Seat) -> None:
    s.pending = s.chain = 0
    s.pending_kind = NONE
    bluffer = s.w4_seat
    s.w4_seat = -1
    if s.w4_bluff:
        s.draw(bluffer, 4)
    else:
        s.draw(seat, 6)
        _end_turn(s, s.next_seat(seat), NORMAL)


def _burn(s: State, seat: Seat, card: Card, announce: str | None) -> None:
    hand = s.hands[seat]
    hand.remove(card)
    s.discard.append(card)
    s.turn = seat
    s.opening = False
    s.stuck = 0
    s.last_player = seat
    after = len(hand)
    ok = _announced(s, plain_call(s, card, after), announce)
    if after == 0 and ok:
        _finish(s, seat)
        return
    if not ok:
        s.draw(seat, s.rs.mau_penalty)
    s.phase = BURNED
    s.burn_announced = announce is not None


def _quick(s: State, seat: Seat, card: Card, announce: str | None) -> None:
    hand = s.hands[seat]
    hand.remove(card)
    s.discard.append(card)
    s.quick_from = -1
    s.stuck = 0
    after = len(hand)
    ok = _announced(s, plain_call(s, card, after), announce)
    if after == 0 and ok:
        _finish(s, seat)
    elif not ok:
        s.draw(seat, s.rs.mau_penalty)


def _double(s: State, seat: Seat, card: Card, announce: str | None) -> None:
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
    s.follow = suit(card)
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


def _finish(s: State, winner: Seat, blocked: bool = False) -> None:
    rs = s.rs
    s.round_over = True
    s.turn = -1
    s.round_winner = winner
    s.pending = s.chain = 0
    s.pending_kind = NONE
    s.quick_from = s.mau_offender = s.finisher = -1
    s.phase = NORMAL
    pts = rs.score_round(s, winner, blocked)
    s.round_points = pts
    s.scores = [a + b for a, b in zip(s.scores, pts, strict=True)]
    s.rounds_played += 1
    rs.end_match(s, winner)
