// The service worker (registered by shell.js; built by build.mjs, which defines SHELL_FILES and
// SHELL_VERSION): keeps the hashed files of the client, so a second visit opens from this device,
// and answers a page asked with no network by the offline page ("Sem conexão"). The game itself
// needs the gateway: nothing else is kept, and the API and the socket always go to the network.

/* global SHELL_FILES, SHELL_VERSION */
const CACHE = `mm-shell-${SHELL_VERSION}`;
const OFFLINE = '/offline';
const OFFLINE_PAGE = [OFFLINE, '/static/icons/icon.svg']; // the page and its icon, kept with the build

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll([...OFFLINE_PAGE, ...SHELL_FILES]))
    .then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith('mm-shell-') && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// A hashed file never changes: from the cache first. A page: from the network, else the offline page;
// the offline page's icon from the network too, else the copy kept.
self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
  } else if (url.pathname.startsWith('/static/dist/')) {
    event.respondWith(caches.match(request).then((kept) => kept || fetch(request)));
  } else if (OFFLINE_PAGE.includes(url.pathname)) {
    event.respondWith(fetch(request).catch(() => caches.match(request)));
  }
});
