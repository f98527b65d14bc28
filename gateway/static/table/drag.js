// A card of the hand dragged onto the pile with a mouse or a pen (a finger taps): dropped on the
// pile it is played as a tap would play it; dropped anywhere else it goes back. Touch keeps the
// hand's scrolling, so only pointers that hover drag.

const START_PX = 8; // a smaller move is a click
const REACH_PX = 24; // the pile's box, grown by this, takes the drop
const CLICK_AFTER_MS = 400; // the click that ends a drag is not a second play

let droppedAt = -Infinity;

/** Whether a click is the one that ends a drag (it must not play the card again). */
export function endsDrag(now = performance.now()) {
  return now - droppedAt < CLICK_AFTER_MS;
}

/** Whether the point (x, y) is over rect `r` grown by REACH_PX. */
export function overRect(x, y, r) {
  return !!r && x >= r.left - REACH_PX && x <= r.right + REACH_PX && y >= r.top - REACH_PX && y <= r.bottom + REACH_PX;
}

/** pointerdown on a card `btn`: follow the pointer; `onDrop()` plays it when let go over the pile. */
export function dragCard(e, btn, onDrop) {
  if (e.pointerType === 'touch' || e.button !== 0) return;
  const x0 = e.clientX;
  const y0 = e.clientY;
  let dragging = false;
  btn.setPointerCapture?.(e.pointerId);
  const move = (m) => {
    const dx = m.clientX - x0;
    const dy = m.clientY - y0;
    if (!dragging && Math.hypot(dx, dy) < START_PX) return;
    dragging = true;
    btn.classList.add('dragging');
    btn.style.transform = `translate(${dx}px, ${dy}px)`;
  };
  const up = (u) => {
    btn.removeEventListener('pointermove', move);
    btn.removeEventListener('pointerup', up);
    btn.removeEventListener('pointercancel', up);
    if (!dragging) return;
    droppedAt = performance.now();
    const pile = document.querySelector('[data-testid="pile-top"]')?.getBoundingClientRect();
    if (u.type === 'pointerup' && overRect(u.clientX, u.clientY, pile)) onDrop(); // it flies from where it was let go
    btn.classList.remove('dragging');
    btn.style.transform = '';
  };
  btn.addEventListener('pointermove', move);
  btn.addEventListener('pointerup', up);
  btn.addEventListener('pointercancel', up);
}
