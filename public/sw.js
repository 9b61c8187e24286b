// Quorum Lab's service worker: after one visit, the app opens and runs with the network gone.
//
// Trunk names every built file by its content hash (quorumlab-app-<hash>.js, _bg.wasm, main-<hash>.css),
// so such a file never changes under its name: it is served from the cache first. The page itself
// (index.html) and the lesson files keep their names across versions, so they come from the network
// first and from the cache only when the network fails — an online visit always sees the newest version
// (a lesson from another version is refused by the app's checksum anyway). Each time a fresh index.html
// arrives, hashed files it no longer names are dropped, so old versions do not pile up.

// Trunk writes the hash as plain hex, so a leading zero is left out: fewer than 16 digits happen.
const CACHE = 'quorumlab-v1';
// Trunk puts the hash after the name (quorumlab-app-<hash>.js) or, for the initializer module, before it
// (<hash>-boot-progress.js).
const HASHED = /\/(?:[\w.-]+-[0-9a-f]{8,16}(?:_bg)?|[0-9a-f]{8,16}-[\w.-]+)\.(?:js|wasm|css)$/;

// The first visit loaded the page before this worker existed, so what it needs is fetched again here:
// the page, every hashed file it names, and the files the page loads by a fixed name. The parts of the
// app loaded on first use (split_<name>-<hash>.wasm, and their loader quorumlab-app-split-<hash>.js) are
// hashed files the page names in its <meta name="quorumlab-parts"> and modulepreload (split-app.mjs), so
// they are kept here too and a part never seen online still opens offline. Every name is
// resolved against the worker's scope (the folder the app was deployed to), never the origin's root.
// The experiments' worker is named by its binary, unhashed (the page must know its name), and fetched
// only when an experiment first runs: precached here too, so an experiment also runs offline.
const STATIC = [
  'boot.js', 'manifest.webmanifest', 'icon.svg', 'icon-192.png', 'icon-512.png',
  'experiment-worker_loader.js', 'experiment-worker.js', 'experiment-worker_bg.wasm',
  // The "Can it break?" search's worker, likewise, so a search also runs offline.
  'explore-worker_loader.js', 'explore-worker.js', 'explore-worker_bg.wasm',
];
const NAMED = /[0-9a-f]{8,16}-[\w.-]+?\.(?:js|wasm|css)|[\w.-]+-[0-9a-f]{8,16}(?:_bg)?\.(?:js|wasm|css)/g;

function inScope(name) {
  return new URL(name, self.registration.scope).href;
}

self.addEventListener('install', (event) => {
  self.skipWaiting();
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const response = await fetch(self.registration.scope, { cache: 'no-cache' });
      if (!response.ok) return;
      const page = await response.clone().text();
      await cache.put(new Request(self.registration.scope), response);
      const named = [...new Set([...page.matchAll(NAMED)].map((match) => match[0]))];
      await cache.addAll([...named, ...STATIC].map(inScope));
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  event.respondWith(HASHED.test(url.pathname) ? cacheFirst(request) : networkFirst(request));
});

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  // The page is one document whatever its fragment or path: key it as the app's root.
  const key = request.mode === 'navigate' ? new Request(self.registration.scope) : request;
  try {
    const response = await fetch(request);
    if (response.ok) {
      await cache.put(key, response.clone());
      if (request.mode === 'navigate') await dropUnnamed(cache, await response.clone().text());
    }
    return response;
  } catch (error) {
    const cached = await cache.match(key);
    if (cached) return cached;
    throw error;
  }
}

/** Removes cached hashed files that the current index.html no longer names. */
async function dropUnnamed(cache, page) {
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (HASHED.test(path) && !page.includes(name)) await cache.delete(request);
  }
}
