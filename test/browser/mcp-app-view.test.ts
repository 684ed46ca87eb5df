// The MCP App plan view in a real host: the official ext-apps AppBridge in headless Chromium loads the resources/read
// document into a sandboxed iframe under the spec's default CSP and feeds it real tool inputs and results from the
// running server. Screenshots of each case: test-artifacts/mcp-app/.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';
import lz from 'lz-string';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_VIEW_URI } from '../../src/mcp/app-view.js';
import { startTestServer, type TestServer } from '../support/http.js';
import { ensureAppViewBuilt, startAppHost, type AppHost, type HostedView } from '../support/app-host.js';
import { workshopPlan } from '../support/viewer-plans.js';

const BASE_URL = 'https://plans.example.org/';
/** The computed start of every top-level entry of workshopPlan(): durations from 09:00, lunch pinned at 12:30. */
const TOP_LEVEL_STARTS = { welcome: '09:00', warmup: '09:30', understand: '09:45', lunch: '12:30', tracks: '13:30', wrapup: '14:30' };
const NESTED_STARTS = { interviews: '09:45', pairs: '10:30', 'pair-a': '10:30', 'pair-b': '10:30', crazy8: '13:30', solution: '13:30' };

interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, any>;
}

let server: TestServer;
let client: Client;
let host: AppHost;
let html: string;
let tools: { name: string; _meta?: Record<string, unknown> }[];

beforeAll(async () => {
  ensureAppViewBuilt();
  server = await startTestServer({ PUBLIC_BASE_URL: BASE_URL, RATE_LIMIT: '1000' });
  client = new Client({ name: 'sessionplan-test-host', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  ({ tools } = await client.listTools());
  // As a host does: the tool names its view, the view is read from the server.
  const uri = getToolUiResourceUri(tools[0]!);
  expect(uri).toBe(PLAN_VIEW_URI);
  html = ((await client.readResource({ uri: uri! })).contents[0] as { text: string }).text;
  host = await startAppHost();
}, 120_000);

afterAll(async () => {
  await host?.close();
  await client?.close();
  await server?.close();
});

const call = async (name: string, args: Record<string, unknown>): Promise<ToolResult> => (await client.callTool({ name, arguments: args })) as ToolResult;
const toolInfo = (name: string) => ({ tool: tools.find((tool) => tool.name === name) });

async function startsOf(view: HostedView): Promise<Record<string, string>> {
  return view.frame.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-item-id]')].map((slot) => [slot.getAttribute('data-item-id'), slot.getAttribute('data-start')])));
}

/** Nothing went wrong in the view: no CSP violation, page error, console error, or request beyond its document. */
async function expectClean(view: HostedView): Promise<void> {
  expect(await view.problems()).toEqual({ cspViolations: [], pageErrors: [], consoleErrors: [], requests: [] });
}

/** The last size the view reported is the height of its content, and the host sized the frame to it. */
async function expectSized(view: HostedView): Promise<number> {
  await view.page.waitForTimeout(300);
  const { sizes } = await view.record();
  expect(sizes.length).toBeGreaterThan(0);
  const last = sizes[sizes.length - 1]!;
  const [content, viewport] = await view.frame.evaluate(() => [document.documentElement.scrollHeight, window.innerHeight]);
  expect(Math.abs(last.height! - content!)).toBeLessThanOrEqual(1);
  expect(viewport).toBe(last.height);
  return last.height!;
}

describe('create_session_link: the plan from the tool input, the link from the result', () => {
  it('renders the plan (titles, computed start times), reports its size, opens the exact link; English, light', async () => {
    const session = workshopPlan();
    const result = await call('create_session_link', { session });
    expect(result.isError).not.toBe(true);
    const view = await host.open(html, { theme: 'light', locale: 'en-GB', toolInfo: toolInfo('create_session_link') });
    try {
      expect((await view.record()).appInfo).toMatchObject({ name: 'sessionplan-plan-view' });
      await view.sendToolInput({ session });
      await view.frame.locator('main[data-state="plan"]').waitFor();
      // The plan is drawn as soon as the input arrives; the button waits for the link.
      expect(await view.frame.getByRole('button', { name: 'Open in Sessionplan' }).isHidden()).toBe(true);
      await view.sendToolResult(result);
      const open = view.frame.getByRole('button', { name: 'Open in Sessionplan' });
      await open.waitFor();

      expect(await view.frame.getByRole('heading', { level: 1 }).textContent()).toBe('Design Sprint Kickoff');
      for (const title of ['Welcome and goals', 'Understand the problem', 'Interview pairs', 'Lunch', 'Sketch tracks', 'Wrap-up']) {
        await expect(view.frame.getByRole('heading', { name: title }).count()).resolves.toBe(1);
      }
      expect(await startsOf(view)).toMatchObject({ ...TOP_LEVEL_STARTS, ...NESTED_STARTS });
      expect(await view.frame.locator('.plan-span').textContent()).toBe('09:00–14:45 (with gaps)');
      expect(await view.frame.locator('.plan-date').textContent()).toBe('Saturday, 14 March 2026');
      expect(await view.frame.evaluate(() => document.documentElement.lang)).toBe('en');

      const height = await expectSized(view);
      expect(height).toBeGreaterThan(900);
      await open.click();
      await expect.poll(async () => (await view.record()).openedLinks).toEqual([result.structuredContent!.link]);
      await expectClean(view);
      await view.screenshot('create-en-light');
    } finally {
      await view.close();
    }
  });
});

describe('decode_session_link: the plan from the result', () => {
  it('a bare v2: code opens on PUBLIC_BASE_URL; German, dark theme', async () => {
    const created = await call('create_session_link', { session: workshopPlan() });
    const code = (created.structuredContent!.link as string).slice(`${BASE_URL}#data=`.length);
    expect(code.startsWith('v2:')).toBe(true);
    const result = await call('decode_session_link', { link: code });
    expect(result.isError).not.toBe(true);
    const view = await host.open(html, { theme: 'dark', locale: 'de-DE', toolInfo: toolInfo('decode_session_link') });
    try {
      await view.sendToolInput({ link: code });
      await view.sendToolResult(result);
      await view.frame.locator('main[data-state="plan"]').waitFor();
      expect(await startsOf(view)).toMatchObject(TOP_LEVEL_STARTS);
      expect(await view.frame.evaluate(() => [document.documentElement.lang, document.documentElement.dataset['theme']])).toEqual(['de', 'dark']);
      // The viewer's German table and Intl formats.
      expect(await view.frame.locator('.plan-date').textContent()).toBe('Samstag, 14. März 2026');
      expect(await view.frame.locator('.plan-length').textContent()).toBe('Dauer 4 Std. 30 Min.');
      expect(await view.frame.locator('.plan-span').textContent()).toBe('09:00–14:45 (mit Lücken)');
      expect(await view.frame.getByText('Lücke von 1 Std. 15 Min.').count()).toBe(1);
      // Dark: light text on a dark page.
      const [page, ink] = await view.frame.evaluate(() => [getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.querySelector('.plan-title')!).color]);
      expect(luminance(page!)).toBeLessThan(0.05);
      expect(luminance(ink!)).toBeGreaterThan(0.7);

      await expectSized(view);
      await view.frame.getByRole('button', { name: 'In Sessionplan öffnen' }).click();
      await expect.poll(async () => (await view.record()).openedLinks).toEqual([`${BASE_URL}#data=${code}`]);
      await expectClean(view);
      await view.screenshot('decode-de-dark');
    } finally {
      await view.close();
    }
  });

  it('a whole link is opened exactly as it was given', async () => {
    const created = await call('create_session_link', { session: workshopPlan() });
    const link = created.structuredContent!.link as string;
    const view = await host.open(html, { theme: 'light', locale: 'en-US' });
    try {
      await view.sendToolInput({ link });
      await view.sendToolResult(await call('decode_session_link', { link }));
      await view.frame.getByRole('button', { name: 'Open in Sessionplan' }).click();
      await expect.poll(async () => (await view.record()).openedLinks).toEqual([link]);
      await expectClean(view);
    } finally {
      await view.close();
    }
  });

  it('a link of a look-alike site: the button opens the same plan on PUBLIC_BASE_URL, and the other origin is only named', async () => {
    const created = await call('create_session_link', { session: workshopPlan() });
    const fragment = (created.structuredContent!.link as string).slice(BASE_URL.length);
    for (const [language, locale, button, says] of [
      ['en', 'en-US', 'Open in Sessionplan', 'The link you gave points to https://evil.example. The button opens the same plan on https://plans.example.org instead.'],
      ['de', 'de-DE', 'In Sessionplan öffnen', 'Der angegebene Link führt zu https://evil.example. Die Schaltfläche öffnet denselben Plan stattdessen auf https://plans.example.org.'],
    ] as const) {
      const link = `https://plans.example.org@evil.example/${fragment}`;
      const view = await host.open(html, { theme: 'light', locale, toolInfo: toolInfo('decode_session_link') });
      try {
        await view.sendToolInput({ link });
        await view.sendToolResult(await call('decode_session_link', { link }));
        await expect.poll(() => view.frame.locator('.view-note').textContent()).toBe(says);
        // The origin is text, not a link anyone can follow.
        expect(await view.frame.locator('.view-actions a').count()).toBe(0);
        await view.frame.getByRole('button', { name: button }).click();
        await expect.poll(async () => (await view.record()).openedLinks).toEqual([`${BASE_URL}${fragment}`]);
        await expectClean(view);
        await view.screenshot(`decode-other-origin-${language}`);
      } finally {
        await view.close();
      }
    }
  });

  it('a link holding 1,000 items, each naming 100 people not in the list: 500 items drawn, 20 chips each, the rest counted', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({ type: 'block', id: `b${i}`, title: `Block ${i}`, duration: 5, blockTypeId: null, personIds: Array(100).fill('x'), description: '', notes: '', material: '', fixedStartTime: null, laneIndex: 0 }));
    const link = `v2:${lz.compressToEncodedURIComponent(JSON.stringify({ version: '1.0', workshop: { title: 'Hostile', description: '', date: null, startTime: null }, blockTypes: [], persons: [], items }))}`;
    const view = await host.open(html, { theme: 'light', locale: 'en-US', toolInfo: toolInfo('decode_session_link') });
    try {
      await view.sendToolInput({ link });
      await view.sendToolResult(await call('decode_session_link', { link }));
      await expect.poll(() => view.frame.locator('.plan-omitted').textContent()).toBe('This link holds 1,000 items; only the first 500 are shown, as a plan holds at most 500.');
      expect(await view.frame.locator('[data-item-id]').count()).toBe(500);
      expect(await view.frame.locator('li.person--unknown').count()).toBe(500 * 20);
      expect(await view.frame.locator('li.person--more').first().textContent()).toBe('and 80 more');
      await expectClean(view);
    } finally {
      await view.close();
    }
  });

  it('a hostile result: markup in its values stays text; a malformed session is one plain sentence', async () => {
    const link = (await call('create_session_link', { session: workshopPlan() })).structuredContent!.link as string;
    const result = await call('decode_session_link', { link });
    const inject = '"><img src=x onerror="window.__injected=1"><script>window.__injected=1</script>';
    const session = structuredClone(result.structuredContent!.session) as Record<string, any>;
    session.workshop.title = `Plan ${inject}`;
    session.blockTypes[0].id = inject;
    session.blockTypes[0].color = 'red; } html { display: none } x {';
    session.persons[0].name = inject;
    session.items[0].blockTypeId = inject;
    session.items[0].notes = `</p>${inject}`;
    const hostile = { ...result, structuredContent: { ...result.structuredContent, session, warnings: [inject] } };
    const malformed = [
      { ...session, items: [{ ...session.items[0], type: inject }] },
      { ...session, workshop: inject },
      { ...session, items: [{ ...session.items[0], duration: '30' }, 7] },
    ];
    const view = await host.open(html, { theme: 'light', locale: 'en-GB', toolInfo: toolInfo('decode_session_link') });
    try {
      await view.sendToolInput({ link });
      await view.sendToolResult(hostile);
      await view.frame.locator('main[data-state="plan"]').waitFor();
      expect(await view.frame.getByRole('heading', { level: 1 }).textContent()).toBe(`Plan ${inject}`);
      expect(await view.frame.locator('.warning').textContent()).toBe(inject);
      expect(await view.frame.locator('[data-item-id="welcome"] .item-notes').textContent()).toBe(`</p>${inject}`);
      expect(await view.frame.evaluate(() => [document.querySelectorAll('img, script:not([type="module"])').length, getComputedStyle(document.documentElement).display])).toEqual([0, 'block']);
      for (const broken of malformed) {
        await view.sendToolResult({ ...result, structuredContent: { ...result.structuredContent, session: broken } });
        await view.frame.locator('main[data-state="problem"]').waitFor();
        expect(await view.frame.getByRole('heading', { level: 1 }).textContent()).toBe('This plan cannot be shown here.');
        await view.sendToolResult(hostile);
        await view.frame.locator('main[data-state="plan"]').waitFor();
      }
      expect(await view.frame.evaluate(() => (window as { __injected?: number }).__injected)).toBeUndefined();
      await expectClean(view);
    } finally {
      await view.close();
    }
  });
});

describe('tool errors', () => {
  it('a refused create: one plain sentence, the tool’s message below it, nothing to open', async () => {
    const session = workshopPlan() as { items: { duration: number }[] };
    session.items[0]!.duration = 2000;
    const result = await call('create_session_link', { session });
    expect(result.isError).toBe(true);
    const view = await host.open(html, { theme: 'light', locale: 'en-GB', toolInfo: toolInfo('create_session_link') });
    try {
      await view.sendToolInput({ session });
      await view.sendToolResult(result);
      await view.frame.locator('main[data-state="problem"]').waitFor();
      expect(await view.frame.getByRole('heading', { level: 1 }).textContent()).toBe('This plan could not be turned into a link.');
      expect(await view.frame.locator('.problem-message').textContent()).toBe(result.content[0]!.text);
      expect(result.content[0]!.text).toMatch(/^SESSION_VALIDATION_FAILED: .*items\[0\]\.duration/);
      expect(await view.frame.getByRole('button').count()).toBe(0);
      await expectSized(view);
      await expectClean(view);
      await view.screenshot('create-error-en');
    } finally {
      await view.close();
    }
  });

  it('a refused decode, in German', async () => {
    const link = 'https://sessionplan.de/s/abc123';
    const result = await call('decode_session_link', { link });
    const view = await host.open(html, { theme: 'light', locale: 'de-AT' });
    try {
      await view.sendToolInput({ link });
      await view.sendToolResult(result);
      await view.frame.locator('main[data-state="problem"]').waitFor();
      expect(await view.frame.getByRole('heading', { level: 1 }).textContent()).toBe('Dieser Link lässt sich nicht öffnen');
      expect(await view.frame.locator('.problem-message').textContent()).toMatch(/^SESSION_DECODE_FAILED: link: is a dynamic server link/);
      await expectClean(view);
      await view.screenshot('decode-error-de');
    } finally {
      await view.close();
    }
  });
});

describe('following the host', () => {
  it('host-context-changed switches theme and language; a refused ui/open-link is said in one line', async () => {
    const result = await call('create_session_link', { session: workshopPlan() });
    const view = await host.open(html, { theme: 'light', locale: 'en-GB', toolInfo: toolInfo('create_session_link') }, { openLinks: 'refuse' });
    try {
      await view.sendToolInput({ session: workshopPlan() });
      await view.sendToolResult(result);
      await view.frame.getByRole('button', { name: 'Open in Sessionplan' }).click();
      await view.frame.getByRole('status').filter({ hasText: 'The link could not be opened from here.' }).waitFor();
      await view.setHostContext({ theme: 'dark', locale: 'de-CH', toolInfo: toolInfo('create_session_link') });
      await view.frame.getByRole('button', { name: 'In Sessionplan öffnen' }).waitFor();
      expect(await view.frame.evaluate(() => [document.documentElement.dataset['theme'], document.documentElement.lang])).toEqual(['dark', 'de']);
      // The plan is drawn again in the new language.
      expect(await view.frame.locator('main[data-state="plan"]').count()).toBe(1);
      expect(await view.frame.locator('.plan-span').textContent()).toBe('09:00–14:45 (mit Lücken)');
      await expectClean(view);
    } finally {
      await view.close();
    }
  });
});

describe('the harness itself', () => {
  it('sees a CSP violation and a page error when the document has them', async () => {
    const broken = html.replace('<script type="module">', '<script>fetch("https://example.invalid/x").catch(() => {}); setTimeout(() => { throw new Error("boom"); });</script><script type="module">');
    const view = await host.open(broken, { theme: 'light', locale: 'en-GB' });
    try {
      await expect.poll(async () => (await view.problems()).cspViolations.length).toBeGreaterThan(0);
      const problems = await view.problems();
      expect(problems.cspViolations.join(' ')).toContain('connect-src');
      await expect.poll(async () => (await view.problems()).pageErrors).toContain('boom');
    } finally {
      await view.close();
    }
  });
});

/** Relative luminance (WCAG) of an `rgb(…)`/`rgba(…)` colour. */
function luminance(color: string): number {
  const [r, g, b] = color.match(/[\d.]+/g)!.slice(0, 3).map((part) => {
    const value = Number(part) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
