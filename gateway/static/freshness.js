// No page of an older build outlives a deploy: each welcome names the client build a page opened
// now gets (docs/protocol.md); when it is not this page's own, the page loads again at the first
// moment nobody is looking at it (the tab hidden), or instead of the next move between screens.
// A table's picture and its last seq are kept in sessionStorage, so the new page resumes it.

const BUILT = /^app-[A-Z0-9]{8}\.js$/;

/**
 * This page's build: the hashed name of its entry module; '' for the unbundled sources.
 * @param {string} moduleUrl the entry module's `import.meta.url`
 */
export function ownBuild(moduleUrl) {
  const name = new URL(moduleUrl).pathname.split('/').pop() || '';
  return BUILT.test(name) ? name : '';
}

/**
 * Whether a welcome's `client` says another build is served now (a gateway of the release before
 * says none, and a page of the sources has none: neither is stale).
 * @param {string} own @param {unknown} served
 */
export function isStale(own, served) {
  return Boolean(own) && typeof served === 'string' && served !== '' && served !== own;
}

/**
 * Follows the connection's welcomes; once stale, reloads the page when it is hidden.
 * @param {EventTarget} conn the Connection (api.js), whose 'welcome' events carry the frame
 * @param {string} own this page's build
 * @param {{visibilityState: string, addEventListener: Function}} doc
 * @param {() => void} reload
 * @returns {{readonly stale: boolean}}
 */
export function watchFreshness(conn, own, doc = document, reload = () => location.reload()) {
  let stale = false;
  const reloadIfHidden = () => {
    if (stale && doc.visibilityState === 'hidden') reload();
  };
  conn.addEventListener('welcome', (e) => {
    stale = isStale(own, /** @type {CustomEvent} */ (e).detail?.client);
    reloadIfHidden();
  });
  doc.addEventListener('visibilitychange', reloadIfHidden);
  return { get stale() { return stale; } };
}
