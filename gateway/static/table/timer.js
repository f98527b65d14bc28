// A timed table's clock on screen: the seconds left in the turn bar, and the ring of the seat on
// turn emptying as they run out. Ticks once a second while a turn is timed; nothing else.

import { timerText } from './centre.js';

/** The clock of the table screen `el`; `get()` reads the screen's state. */
export function turnTimer(el, get) {
  let id = 0;

  function show() {
    const st = get();
    const total = st.info?.options?.turn_seconds;
    if (!total) return;
    const node = el.querySelector('[data-testid="turn-timer"]');
    if (node) node.textContent = timerText(total, st.turnSince, Date.now());
    const left = Math.max(0, Math.min(1, 1 - (Date.now() - st.turnSince) / 1000 / total));
    el.querySelector('.on-turn .seat-ring')?.style.setProperty('--left', left.toFixed(3));
  }

  return {
    /** Tick while `on` (a timed turn being played), else stop. */
    run(on) {
      if (id) clearInterval(id);
      id = on ? setInterval(show, 1000) : 0;
      if (on) show();
    },
    stop() {
      if (id) clearInterval(id);
      id = 0;
    },
  };
}
