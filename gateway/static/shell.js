// The page as an installed app: its service worker (sw.js: the client's files kept on the device,
// the offline page when there is no network). Registered once the page has loaded, so it never
// competes with the first screen's requests.

export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  const register = () => navigator.serviceWorker.register('/sw.js').catch(() => { /* not kept: the page works without */ });
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
