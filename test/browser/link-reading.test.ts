// One reading of a link: the server (the whole text) and the page (location.hash) find the same plan, in Node and in Chromium.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLink } from '../../src/session/link.js';
import type { StartedServer } from '../../src/server/start-server.js';
import { isBrowserLink, linkCorpus, PLAN_A_TITLE, PLAN_B_TITLE } from '../fixtures/link-corpus.js';
import type { ChromiumHandle } from '../support/chromium.js';
import type { LinkReading, LinkReadings } from '../support/page-codec.js';
import { callPageCodec, openViewerPage, type ViewerPage } from '../support/viewer-harness.js';

const corpus = linkCorpus();

function reading(text: string): LinkReading {
  try {
    return { payload: parseLink(text) };
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

/** What Node reads: the same two readings the page module computes in Chromium. */
const nodeReadings: LinkReadings[] = corpus.map(({ link }) => ({ whole: reading(link), fromHash: isBrowserLink(link) ? reading(new URL(link).hash) : null }));

describe('link corpus in Node', () => {
  it.each(corpus.map((entry, i) => [entry.name, entry, nodeReadings[i]!] as const))('%s', (_name, entry, readings) => {
    if ('payload' in entry.expected) expect(readings.whole).toEqual({ payload: entry.expected.payload });
    else {
      expect(readings.whole).toHaveProperty('refused');
      expect((readings.whole as { refused: string }).refused).toContain(entry.expected.refused);
    }
    // A link a browser opens: the page's reading (its fragment) finds the same plan, or refuses too.
    if (readings.fromHash !== null) {
      if ('payload' in readings.whole) expect(readings.fromHash).toEqual(readings.whole);
      else expect(readings.fromHash).toHaveProperty('refused');
    }
  });
});

describe('link corpus in Chromium (the page runs the same function)', () => {
  let viewer: ViewerPage | undefined;
  let server: StartedServer;
  let browser: ChromiumHandle;
  beforeAll(async () => {
    viewer = await openViewerPage();
    ({ server, browser } = viewer);
  }, 60_000);
  afterAll(() => viewer?.close());

  it('reads every link of the corpus exactly as Node does, whole and from the fragment', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/`);
    const inPage = (await page.evaluate(callPageCodec('readLinks', corpus.map((c) => c.link)))) as LinkReadings[];
    await page.close();
    const differences = corpus.flatMap((entry, i) => (JSON.stringify(inPage[i]) === JSON.stringify(nodeReadings[i]) ? [] : [`${entry.name}: page ${JSON.stringify(inPage[i])} vs node ${JSON.stringify(nodeReadings[i])}`]));
    expect(differences).toEqual([]);
  });

  it.each([
    ['plan A percent-encoded in the query', (b: string) => `${b}/?q=%23data%3Dv2%3A`],
    ['plan A percent-encoded in a second query parameter', (b: string) => `${b}/?lang=en&x=%23data%3Dv2%3A`],
  ])('the viewer shows the plan the server decodes: %s', async (_name, prefix) => {
    const entry = corpus.find((c) => c.name.startsWith('plan A percent-encoded in the query'))!;
    const fragment = entry.link.slice(entry.link.indexOf('#'));
    const payloadA = /%3A([^%]+)%26#/.exec(entry.link)![1]!;
    const link = `${prefix(server.url)}${payloadA}%26${fragment}`;
    // The server: REST decode of the very link the page opens.
    const response = await fetch(`${server.url}/api/session-links/decode`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ link }) });
    const decoded = (await response.json()) as { session: { workshop: { title: string } } };
    expect(decoded.session.workshop.title).toBe(PLAN_B_TITLE);
    // The page: opened at that link, it renders plan B and never plan A.
    const page = await browser.context.newPage();
    await page.goto(link);
    await page.waitForSelector('[data-state="plan"], [data-state="problem"]');
    const text = await page.textContent('body');
    await page.close();
    expect(text).toContain(PLAN_B_TITLE);
    expect(text).not.toContain(PLAN_A_TITLE);
  });
});
