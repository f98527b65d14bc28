// A card touched in the hand, turned into the move it makes: played at once, or first its suit or
// colour asked (the chooser), or (ace_with_company) its companion picked; a card that may not be
// played says why. What may be played comes only from the view's legal actions.

import { errorText } from '../i18n.js';
import { companionsOf, pickAnnounce } from './legal.js';
import { legalOf, mySeat } from './state.js';

/**
 * The hand's handlers over the screen's state: `get()` reads it, `set(patch)` changes it and
 * draws again, `act(action, fromEl)` sends a move, `cardEl(name)` finds a card of the hand.
 */
export function cardPlay({ get, set, update, act, cardEl, toast, focusChooser }) {
  function ask(card, extra, actions) {
    const choices = [...new Set(actions.map((a) => a.choose).filter(Boolean))];
    if (!choices.length) return false;
    set({ companion: null, chooser: { card, ...extra, choices, actions, forced: false } });
    focusChooser();
    return true;
  }

  function onCard(name, btn) {
    const st = get();
    const g = legalOf(st);
    if (st.companion) {
      onCompanion(name, btn);
      return;
    }
    if (st.doubleMode) {
      const doubles = g.doubles.get(name);
      if (doubles) act(pickAnnounce(doubles, st.announce), btn);
      return;
    }
    const plays = g.plays.get(name);
    if (plays && companionsOf(plays).size) { // ace_with_company: the Ace waits for its companion
      set({ companion: { card: name, actions: plays }, chooser: null });
      return;
    }
    if (plays) {
      if (!ask(name, {}, plays)) act(pickAnnounce(plays, st.announce), btn);
      return;
    }
    const other = [...g.burn, ...g.quick].filter((a) => a.card === name);
    if (other.length) act(pickAnnounce(other, st.announce), btn);
    else toast(errorText(st.view && st.view.turn === mySeat(st) ? 'illegal_card' : 'not_your_turn'), 'error');
  }

  // ace_with_company: the card played with the Ace (a Jack asks its suit first); the Ace again puts it back
  function onCompanion(name, btn) {
    const st = get();
    const c = st.companion;
    const withIt = companionsOf(c.actions).get(name);
    if (!withIt) {
      set({ companion: null });
      if (name !== c.card) onCard(name, btn);
      return;
    }
    if (!ask(name, { ace: c.card }, withIt)) act(pickAnnounce(withIt, st.announce), cardEl(c.card));
  }

  function onChoose(letter) {
    const st = get();
    const c = st.chooser;
    if (!c) return;
    if (c.forced) update({ choseAt: st.seq }); // not offered again until the table moves
    const from = c.ace || c.card;
    act(pickAnnounce(c.actions.filter((a) => a.choose === letter), st.announce), from ? cardEl(from) : null);
  }

  return { onCard, onChoose };
}
