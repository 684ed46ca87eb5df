// Real Chromium against the real server: links created over REST open on the viewer page, decode in the page, render the plan.
import { createServer } from 'node:net';
import LZString from 'lz-string';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/node.js';
import { createSessionOperations } from '../../src/session/operations.js';
import type { StartedServer } from '../../src/server/start-server.js';
import type { ChromiumHandle } from '../support/chromium.js';
import { differentialCases } from '../support/codec-cases.js';
import { callPageCodec, openViewerPage, startViewerServer, type ViewerManifest, type ViewerPage } from '../support/viewer-harness.js';
import { largestInBudgetPlan, workshopPlan } from '../support/viewer-plans.js';
import { ARTIFACTS, createLink as createLinkOn, dataOf, onServer as onServerOf, visit as visitIn, type Visit } from '../support/viewer-visit.js';

let server: StartedServer;
let browser: ChromiumHandle;
let manifest: ViewerManifest;
const artifacts = ARTIFACTS;

let viewer: ViewerPage | undefined;

beforeAll(async () => {
  viewer = await openViewerPage();
  ({ manifest, browser, server } = viewer);
});

afterAll(() => viewer?.close());

async function post(path: string, body: unknown): Promise<{ status: number; json: Record<string, any> }> {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

const createLink = (session: unknown): Promise<string> => createLinkOn(server.url, session);
const onServer = (linkOrFragment: string): string => onServerOf(server.url, linkOrFragment);
const visit = (url: string): Promise<Visit> => visitIn(browser.context, url);
const text = (page: Page, selector: string): Promise<string> => page.locator(selector).first().innerText();

describe('viewer page in Chromium', () => {
  it('opens a link created over REST and renders titles, times, gaps, groups, lanes, people and colours', async () => {
    const link = await createLink(workshopPlan());
    const payload = link.slice(link.indexOf('v2:') + 3);
    const { page, pageErrors, consoleErrors, requests, responses, document } = await visit(onServer(link));

    expect(await page.locator('#app').getAttribute('data-state')).toBe('plan');
    expect(await text(page, '.plan-title')).toBe('Design Sprint Kickoff');
    expect(await page.locator('time.plan-date').getAttribute('datetime')).toBe('2026-03-14');
    expect(await text(page, '.plan-date')).toBe('Saturday, 14 March 2026');
    // The planned sum (what create's summary reports) and the span on the clock, named apart.
    expect(await text(page, '.plan-length')).toBe('Duration 4 hrs 30 mins');
    expect(await text(page, '.plan-span')).toBe('09:00–14:45 (with gaps)');
    expect(await page.title()).toBe('Design Sprint Kickoff · Sessionplan');

    // Computed start times in document order: durations add up, the pinned lunch leaves a gap, lanes start together.
    const ids = await dataOf(page, 'li.slot', 'itemId');
    const starts = await dataOf(page, 'li.slot', 'start');
    expect(Object.fromEntries(ids.map((id, index) => [id, starts[index]]))).toEqual({
      welcome: '09:00', warmup: '09:30', understand: '09:45', interviews: '09:45', pairs: '10:30', 'pair-a': '10:30', 'pair-b': '10:30',
      lunch: '12:30', tracks: '13:30', crazy8: '13:30', storyboard: '13:30', solution: '13:30', wrapup: '14:30',
    });
    expect(await page.locator('.gap').allInnerTexts()).toEqual(['Gap of 1 hr 15 mins']);
    expect(await page.locator('[data-item-id="lunch"] .slot-pin').count()).toBe(1);

    // The group holds its children; the breakouts are parallel lanes with their people.
    expect(await dataOf(page, '[data-item-id="understand"] li.slot', 'itemId')).toEqual(['interviews', 'pairs', 'pair-a', 'pair-b']);
    const lanes = page.locator('[data-item-id="tracks"] .lane');
    expect(await lanes.count()).toBe(3);
    expect(await dataOf(page, '[data-item-id="tracks"] .lane-people .person', 'personId')).toEqual(['bob', 'carol', 'dan']);
    expect(await lanes.locator('.item-title').allInnerTexts()).toEqual(['Crazy 8s', 'Storyboard', 'Solution sketch']);
    const laneBoxes = await Promise.all([0, 1, 2].map((index) => lanes.nth(index).boundingBox()));
    expect(new Set(laneBoxes.map((box) => box?.y)).size, 'lanes sit side by side').toBe(1);
    expect(laneBoxes[0]!.x).toBeLessThan(laneBoxes[1]!.x);
    expect(await dataOf(page, '[data-item-id="pairs"] .lane-people .person', 'personId')).toEqual(['alice', 'carol']);

    // People per block and categories in their colours.
    expect(await dataOf(page, '[data-item-id="wrapup"] .people .person', 'personId')).toEqual(['alice', 'bob']);
    expect(await text(page, '[data-item-id="wrapup"] .person')).toContain('Alice Archer');
    const style = (selector: string, property: string) =>
      page.locator(selector).first().evaluate((node, name) => getComputedStyle(node).getPropertyValue(name as string), property);
    expect(await text(page, '[data-item-id="welcome"] .category-chip')).toBe('Input');
    expect(await style('[data-item-id="welcome"] .category-chip', 'background-color')).toBe('rgb(45, 91, 215)');
    expect(await style('[data-item-id="welcome"] .category-chip', 'color')).toBe('rgb(255, 255, 255)');
    expect(await style('[data-item-id="welcome"] > .block', 'border-left-color')).toBe('rgb(45, 91, 215)');
    expect(await style('[data-item-id="lunch"] .category-chip', 'background-color')).toBe('rgb(139, 195, 74)');
    expect(await style('[data-item-id="lunch"] .category-chip', 'color')).toBe('rgb(17, 17, 17)');
    expect(await style('[data-item-id="crazy8"] .category-chip', 'background-color')).toBe('rgb(228, 87, 46)');

    // Served by the same server: the page under its CSP, one hashed .wasm as application/wasm, cached immutably.
    const csp = (await document!.allHeaders())['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/unsafe-inline|'unsafe-eval'/);
    const wasm = responses.filter((response) => new URL(response.url()).pathname.endsWith('.wasm'));
    expect(wasm.map((response) => new URL(response.url()).pathname)).toEqual([`/assets/${manifest.assets.wasm}`]);
    expect(wasm[0]!.status()).toBe(200);
    expect((await wasm[0]!.allHeaders())['content-type']).toBe('application/wasm');
    expect((await wasm[0]!.allHeaders())['cache-control']).toBe('public, max-age=31536000, immutable');

    // Decoded in the browser: the payload never travels to the server, and nothing failed on the page.
    for (const request of requests) {
      expect(request.url().split('#')[0]).not.toContain(payload.slice(0, 32));
      expect(request.postData()).toBeNull();
    }
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);

    await page.screenshot({ path: `${artifacts}viewer.png`, fullPage: true });
    await page.close();
  });

  it('opens an older document made by lz-string itself, fills defaults and shows the same warnings as the server', async () => {
    const older = { workshop: { title: 'Old plan' }, items: [
      { type: 'block', id: 'a', title: 'Legacy block', duration: 20, personIds: ['ghost'], blockTypeId: 'missing' },
      { type: 'block', id: 'a', title: 'Same id again', duration: 10, futureField: 'kept' },
    ] };
    const fragment = `#data=v2:${LZString.compressToEncodedURIComponent(JSON.stringify(older))}`;
    const decoded = await post('/api/session-links/decode', { link: fragment });
    expect(decoded.status).toBe(200);
    const warnings = decoded.json['warnings'] as string[];
    expect(warnings.length).toBeGreaterThan(0);

    const { page, pageErrors } = await visit(onServer(fragment));
    expect(await text(page, '.plan-title')).toBe('Old plan');
    expect(await page.locator('.warning').allInnerTexts()).toEqual(warnings);
    expect(await text(page, '.plan-start')).toBe('No start time set: times count from the start');
    expect(await dataOf(page, 'li.slot', 'start')).toEqual(['+0:00', '+0:20']);
    expect(await text(page, '[data-item-id="a"] .person--unknown')).toBe('ghost (not in the people list)');
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('shows markup in plan text as text: titles, names, categories and IDs cannot inject HTML', async () => {
    const hostile = '<img src=x onerror="window.injected=1"><b>bold</b> & "quotes" \'single\'';
    const plan = workshopPlan() as any;
    plan.workshop.title = hostile;
    plan.blockTypes.push({ id: 'in"put>', name: hostile, color: '#2d5bd7' });
    plan.persons[0].name = hostile;
    plan.items[0].blockTypeId = 'in"put>';
    plan.items[0].id = '"><script>window.injected=2</script>';
    plan.items[0].description = hostile;
    const link = await createLink(plan);
    const { page, pageErrors } = await visit(onServer(link));
    expect(await text(page, '.plan-title')).toBe(hostile);
    expect(await text(page, '.item-description')).toBe(hostile);
    expect(await text(page, '[data-block-type="in\\"put>"].category-chip')).toBe(hostile);
    expect(await text(page, '.person')).toContain(hostile);
    expect(await page.locator('.plan img, .plan b, .plan script').count()).toBe(0);
    expect(await page.evaluate('window.injected ?? null')).toBeNull();
    const first = page.locator('li.slot').first();
    expect(await first.getAttribute('data-item-id')).toBe('"><script>window.injected=2</script>');
    // The category colour still applies to a category whose ID needs CSS escaping.
    expect(await first.locator('.category-chip').evaluate((node) => getComputedStyle(node).backgroundColor)).toBe('rgb(45, 91, 215)');
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('shows a readable error for broken and legacy links (the server\'s own message) and never throws', async () => {
    const valid = (await createLink(workshopPlan())).split('v2:')[1]!;
    const broken = [
      '#data=N4IgzgpgTg',
      '#data=v1:N4IgzgpgTg',
      '#data=v2:',
      '#data=v2:abc!def',
      `#data=v2:${valid.slice(0, Math.floor(valid.length / 2))}`,
      `#data=v2:${LZString.compressToEncodedURIComponent('not json at all')}`,
      `#data=v2:${LZString.compressToEncodedURIComponent(JSON.stringify({ workshop: { title: 42 } }))}`,
      '#view=timeline',
    ];
    // The first through a fresh page load, the others through hashchange on that same page.
    const { page, pageErrors } = await visit(onServer(broken[0]!));
    for (const fragment of broken) {
      const expected = await post('/api/session-links/decode', { link: fragment });
      expect(expected.status, fragment).toBe(422);
      const message = String(expected.json['error']['message']).replace(/^SESSION_DECODE_FAILED:\s*/, '');
      if (fragment !== broken[0]) {
        await page.evaluate(`location.hash = ${JSON.stringify(fragment)}`);
        await page.waitForFunction(`document.querySelector('.problem-detail')?.textContent === ${JSON.stringify(message)}`);
      }
      expect(await page.locator('#app').getAttribute('data-state'), fragment).toBe('problem');
      expect(await text(page, '.problem-title')).toBe('This link cannot be opened');
      // One plain sentence for a participant: no tool names, no codec terms; the server's message is folded below.
      const sentence = await text(page, '.problem-message');
      expect(sentence, fragment).toMatch(/^This (link|plan) .*\. Ask the person who (shared|made) it .*\.$/);
      expect(sentence, fragment).not.toMatch(/create_session_link|decode|payload|v2|lz|codec|JSON|SESSION_/i);
      // Folded: not visible until opened, then the server's own message and what to do.
      expect(await page.locator('.problem-detail').isVisible(), fragment).toBe(false);
      await page.locator('.problem-summary').click();
      expect(await text(page, '.problem-detail'), fragment).toBe(message);
      expect(await text(page, '.problem-hint')).toMatch(/^Check that the complete unmodified snapshot was supplied/);
      if (fragment.startsWith('#data=v1:')) await page.screenshot({ path: `${artifacts}viewer-error.png` });
    }
    expect(pageErrors).toEqual([]);
    await page.close();
    const empty = await visit(`${server.url}/`);
    expect(await empty.page.locator('#app').getAttribute('data-state')).toBe('empty');
    expect(await text(empty.page, '.problem-title')).toBe('Open a plan or start a new one');
    await empty.page.close();
  });

  it('follows hashchange without reloading the page', async () => {
    const first = await createLink(workshopPlan());
    const second = await createLink({ ...workshopPlan(), workshop: { title: 'Second plan', description: '', date: null, startTime: '14:00' } });
    const { page, pageErrors } = await visit(onServer(first));
    await page.evaluate('window.sameDocument = true');
    await page.evaluate(`location.hash = ${JSON.stringify(second.slice(second.indexOf('#')))}`);
    await page.waitForFunction(`document.querySelector('.plan-title')?.textContent === 'Second plan'`);
    expect(await page.evaluate('window.sameDocument')).toBe(true);
    expect(await text(page, '.plan-span')).toMatch(/^14:00–/);
    await page.evaluate(`location.hash = '#data=v2:%%%'`);
    await page.waitForSelector('#app[data-state="problem"]');
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('opens links exactly as created when PUBLIC_BASE_URL points at this server', async () => {
    // uWS needs the port before PUBLIC_BASE_URL can name it: take a free one from the OS, then start the server on it.
    const port = await new Promise<number>((resolve, reject) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
      });
    });
    const own = await startViewerServer({ PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}/` });
    try {
      const response = await fetch(`${own.url}/api/session-links`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session: workshopPlan() }) });
      const { link } = (await response.json()) as { link: string };
      expect(link.startsWith(`http://127.0.0.1:${port}/#data=v2:`)).toBe(true);
      const { page, pageErrors } = await visit(link);
      expect(await text(page, '.plan-title')).toBe('Design Sprint Kickoff');
      expect(pageErrors).toEqual([]);
      await page.close();
    } finally {
      await own.close();
    }
  });

  it('runs the codec differential set in the page: the shipped browser codec equals lz-string and the Node codec', async () => {
    const { page } = await visit(`${server.url}/`);
    const seed = 20261202;
    const count = 1200;
    const result = await page.evaluate(callPageCodec('runDifferential', `/assets/${manifest.assets.wasm}`, seed, count)) as {
      cases: number; mismatches: string[]; payloads: string[];
    };
    const cases = differentialCases(seed, count);
    expect(result.cases).toBe(cases.length);
    expect(result.mismatches).toEqual([]);
    const nodeCodec = await loadCodec();
    expect(result.payloads).toEqual(cases.map((input) => LZString.compressToEncodedURIComponent(input)));
    expect(result.payloads).toEqual(cases.map((input) => nodeCodec.compress(input)));
    await page.close();
  });

  it('renders the largest in-budget plan completely and records the decode + render measure', async () => {
    const operations = createSessionOperations(loadCodec);
    const plan = await largestInBudgetPlan(async (candidate) => operations.createSessionLink(candidate).then(() => true, () => false));
    const link = await createLink(plan);
    const { page, pageErrors } = await visit(onServer(link));
    const countItems = (items: any[]): number => items.reduce((sum, item) => sum + 1 + countItems(item.children ?? []), 0);
    const expectedSlots = countItems(plan['items'] as any[]);
    expect(expectedSlots).toBeGreaterThan(450);
    expect(await page.locator('li.slot').count()).toBe(expectedSlots);
    expect(await page.locator('.lane--wide').count(), 'breakouts with the same programme in all lanes').toBeGreaterThan(0);
    // The entries down to 2.5 viewport heights are laid out inside the measure (Chromium renders content-visibility
    // boxes that close before the first paint); the rest wait in content-visibility parts below that line.
    const partTops = await page.evaluate(`[...document.querySelectorAll('.timeline--later')].map((part) => part.getBoundingClientRect().top - innerHeight * 2.5)`) as number[];
    expect(partTops.length, 'a large plan skips off-screen layout in parts').toBeGreaterThan(0);
    expect(Math.min(...partTops), 'no part starts within 2.5 viewport heights').toBeGreaterThanOrEqual(0);
    const measure = await page.evaluate(`performance.getEntriesByName('sessionplan:open')[0]?.duration ?? -1`) as number;
    expect(measure).toBeGreaterThan(0);
    const firstScreen = await page.evaluate(`performance.getEntriesByName('sessionplan:first-screen')[0]?.duration ?? -1`) as number;
    expect(firstScreen).toBeGreaterThan(0);
    expect(firstScreen).toBeLessThanOrEqual(measure);
    console.log(`viewer: largest in-budget plan (${link.length} chars, ${expectedSlots} items): first screen ${firstScreen.toFixed(1)} ms, whole plan ${measure.toFixed(1)} ms`);
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
