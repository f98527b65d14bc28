// A tiny element builder and a few DOM helpers shared by the screens.

/**
 * h('button', {class: 'btn', onclick: fn, dataset: {testid: 'x'}}, 'text', child…)
 * Strings become text nodes (never HTML); `html` sets trusted markup (our own SVG).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'html') el.innerHTML = value;
    else if (key === 'testid') el.dataset.testid = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'style' && typeof value === 'object') Object.assign(el.style, value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace an element's children. */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** Re-render `container` keeping the keyboard focus on the element with the same data-focus key. */
export function keepFocus(container, render) {
  const active = document.activeElement;
  const key = active && container.contains(active) ? active.dataset.focus : null;
  render();
  if (key) {
    const again = container.querySelector(`[data-focus="${CSS.escape(key)}"]`);
    if (again && !again.disabled) again.focus({ preventScroll: true });
  }
}

/** Keep Tab and Shift+Tab inside a modal `container` (call from its keydown handler). */
export function trapTab(e, container) {
  if (e.key !== 'Tab') return;
  const focusables = [...container.querySelectorAll('button:not([disabled]), select, input, a[href]')];
  if (!focusables.length) return;
  const first = focusables[0];
  const last = focusables[focusables.length - 1];
  if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
  else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
}

export const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

/** Slide `el` from where `from` (a DOMRect) was to where it is now (FLIP). */
export function slideFrom(el, from, { duration = 380, scale = true } = {}) {
  if (!el || !from || reducedMotion()) return;
  const to = el.getBoundingClientRect();
  if (!to.width || !from.width) return;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const s = scale ? from.width / to.width : 1;
  el.style.transition = 'none';
  el.style.transform = `translate(${dx}px, ${dy}px) scale(${s})`;
  el.getBoundingClientRect(); // commit the start position
  el.style.transition = `transform ${duration}ms cubic-bezier(.2,.8,.2,1)`;
  el.style.transform = '';
  const done = () => { el.style.transition = ''; el.removeEventListener('transitionend', done); };
  el.addEventListener('transitionend', done);
}

/** A throw-away copy of some markup flying from one rect to another (opponents' draws and plays). */
export function flyGhost(html, from, to, { duration = 420, className = 'ghost-card' } = {}) {
  if (!from || !to || reducedMotion()) return;
  const ghost = h('div', { class: className, html, 'aria-hidden': 'true' });
  const w = Math.min(from.width || 60, 70);
  Object.assign(ghost.style, {
    left: `${to.left + to.width / 2 - w / 2}px`, top: `${to.top + to.height / 2 - w * 0.7}px`, width: `${w}px`,
  });
  document.body.append(ghost);
  const rect = ghost.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (rect.left + rect.width / 2);
  const dy = from.top + from.height / 2 - (rect.top + rect.height / 2);
  ghost.style.transform = `translate(${dx}px, ${dy}px)`;
  ghost.getBoundingClientRect();
  ghost.style.transition = `transform ${duration}ms cubic-bezier(.2,.8,.2,1), opacity ${duration}ms`;
  ghost.style.transform = '';
  ghost.style.opacity = '0.2';
  setTimeout(() => ghost.remove(), duration + 60);
}

/** Copy text: the clipboard API where allowed, else a hidden textarea. */
export async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch { /* fall back */ }
  const area = h('textarea', { style: { position: 'fixed', opacity: '0', top: '0', left: '0' } });
  area.value = text;
  document.body.append(area);
  area.select();
  let ok = false;
  try { ok = document.execCommand('copy'); } catch { ok = false; }
  area.remove();
  return ok;
}
