// A tiny element builder and a few DOM helpers shared by the screens.

/**
 * h('button', {class: 'btn', onclick: fn, dataset: {testid: 'x'}}, 'text', child…)
 * Strings become text nodes (never HTML); `html` sets trusted markup (our own SVG); `style` an object
 * of properties (custom ones, `--x`, included).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'html') el.innerHTML = value;
    else if (key === 'testid') el.dataset.testid = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'style' && typeof value === 'object') setStyle(el, value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

// CSSOM, never a style attribute (the page's CSP forbids inline styles); custom properties too
function setStyle(el, style) {
  for (const [name, v] of Object.entries(style)) {
    if (name.startsWith('--')) el.style.setProperty(name, v);
    else el.style[name] = v;
  }
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
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
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
