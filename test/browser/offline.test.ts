// The page without a network, in real Chromium against the real server: after a first visit its service worker keeps
// the page, scripts, styles, codec and library, so another link opens, Live runs and templates are offered offline; links are
// never kept or sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openViewerPage, type ViewerPage } from '../support/viewer-harness.js';
import { germanWorkshopPlan, workshopPlan } from '../support/viewer-plans.js';
import { createLink, menuItem, onServer } from '../support/viewer-visit.js';

let viewer: ViewerPage | undefined;

beforeAll(async () => {
  viewer = await openViewerPage();
}, 60_000);

afterAll(() => viewer?.close());

describe('offline', () => {
  it('opens any link and runs Live with the network gone, once the page was opened', async () => {
    const { context } = viewer!.browser;
    const first = onServer(viewer!.server.url, await createLink(viewer!.server.url, workshopPlan()));
    const second = await createLink(viewer!.server.url, germanWorkshopPlan());
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(first);
    await page.waitForSelector('#app[data-state="plan"]');
    // The worker is installed (every file kept) and active once `ready` resolves.
    expect(await page.evaluate(() => navigator.serviceWorker.ready.then((registration) => registration.active?.scriptURL ?? ''))).toBe(`${viewer!.server.url}/sw.js`);
    const kept = await page.evaluate(async () => {
      const names = await caches.keys();
      const urls: string[] = [];
      for (const name of names) for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname + new URL(request.url).search);
      return urls;
    });
    const manifest = viewer!.manifest;
    expect(kept.sort()).toEqual(['/', ...[...Object.values(manifest.assets), ...Object.values(manifest.onDemand)].map((file) => `/assets/${file}`)].sort());

    await context.setOffline(true);
    try {
      const offline = await context.newPage();
      offline.on('pageerror', (error) => errors.push(error.message));
      const requests: string[] = [];
      context.on('request', (request) => requests.push(request.url()));
      await offline.goto(onServer(viewer!.server.url, second, '?lang=de'));
      await offline.waitForSelector('#app[data-state="plan"]');
      expect(await offline.locator('.plan-title').innerText()).toBe('Strategietag Team Süd');
      await (await menuItem(offline, 'Live')).click();
      await offline.getByRole('button', { name: 'Jetzt starten', exact: true }).click();
      expect(await offline.locator('.live-title').innerText()).toBe('Ankommen & Check-in');
      expect(await offline.locator('.live-left').innerText()).toBe('noch 20 Min.');
      // Nothing asked for carried the link's payload.
      const payload = second.slice(second.indexOf('v2:') + 3);
      for (const url of requests) expect(url).not.toContain(payload.slice(0, 40));
      // The empty page offers its templates from the kept library file.
      await offline.goto(`${viewer!.server.url}/?lang=de`);
      await offline.waitForSelector('#app[data-state="empty"]');
      await expect.poll(() => offline.getByRole('region', { name: 'Oder mit einer Vorlage beginnen' }).getByRole('button').count()).toBe(4);
      await offline.close();
    } finally {
      await context.setOffline(false);
    }
    expect(errors).toEqual([]);
    await page.close();
  });
});
