// The page's service worker (/sw.js): keeps the page, its scripts, styles and codec.wasm on the device from the first
// visit, so a link opens, and runs live, with no network. It caches only the build's own files, never a link.

/** The build's files ("/" and every /assets/ file) and their version; set by build.mjs. */
declare const __OFFLINE_FILES__: string[];
declare const __OFFLINE_VERSION__: string;

/** An event a worker may extend (install, activate) or answer (fetch). */
interface ExtendableEvent extends Event {
  waitUntil(work: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(answer: Promise<Response>): void;
}
/** The worker's global scope, as far as it is used (the project's types are the page's, lib "dom"). */
const worker = self as unknown as {
  readonly location: Location;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
};
const CACHE = `sessionplan-${__OFFLINE_VERSION__}`;
const PREFIX = 'sessionplan-';
/** How long the page waits for the network before it opens from the device (a hotel network that never answers). */
const PAGE_TIMEOUT_MS = 4000;

// A new build's worker fills a cache of its own and waits until no page of the old build is open, so an open page
// (a plan running live, say) keeps the files it was built with.
worker.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(__OFFLINE_FILES__)));
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)))));
});

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  // The page from the network while there is one (a new build shows at once), else the one kept; its query (?lang=)
  // does not change the file, and the link's fragment never reaches a worker.
  if (request.mode === 'navigate' && url.pathname === '/') event.respondWith(page(request));
  else if (url.pathname.startsWith('/assets/') && __OFFLINE_FILES__.includes(url.pathname)) event.respondWith(kept(request));
});

async function page(request: Request): Promise<Response> {
  const fromNetwork = fetch(request);
  const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), PAGE_TIMEOUT_MS));
  try {
    const answer = await Promise.race([fromNetwork, timeout]);
    if (answer !== undefined) return answer;
  } catch {
    // Offline: the kept page below.
  }
  const cached = await caches.match('/', { cacheName: CACHE });
  return cached ?? fromNetwork;
}

/** Content-hashed files never change: the kept copy, else the network. */
async function kept(request: Request): Promise<Response> {
  return (await caches.match(request, { cacheName: CACHE, ignoreSearch: true })) ?? fetch(request);
}
