// The viewer's layout where it is easy to get wrong: words in narrow lanes on paper, a last block alone on a page, and
// the page height while a long plan scrolls into view on a phone (placeholders of the parts not yet laid out).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { generatePlan } from '../fixtures/plans.js';
import { pdfText, pdfToPngs } from '../support/poppler.js';
import { useEnglishAndGermanPages } from '../support/viewer-harness.js';
import { germanWorkshopPlan, workshopPlan } from '../support/viewer-plans.js';
import { ARTIFACTS, createLink, onServer, visit } from '../support/viewer-visit.js';

const { english, german } = useEnglishAndGermanPages();

type Plan = Record<string, any>;

const block = (id: string, title: string, duration: number, extra: Plan = {}): Plan => ({
  type: 'block', id, title, duration, blockTypeId: null, personIds: [], description: '', notes: '', material: '', fixedStartTime: null, ...extra,
});

/** The German plan with long compound words in the blocks of its three-lane breakout, each with a category and a duration. */
function compoundWordsPlan(): Plan {
  const plan = germanWorkshopPlan() as Plan;
  const workshop = plan['items'].find((item: Plan) => item['id'] === 'werkstatt');
  workshop['sameInAllBreakouts'] = false;
  workshop['children'] = [
    block('z1', 'Strategie & Zusammenarbeit', 30, { blockTypeId: 'uebung', laneIndex: 0, description: 'Verantwortung und Entscheidungswege' }),
    block('z2', 'Kundenfeedback', 30, { blockTypeId: 'uebung', laneIndex: 1, notes: 'Rückmeldungen sammeln' }),
    block('z3', 'Projektmanagement', 30, { blockTypeId: 'impuls', laneIndex: 2, material: 'Moderationskoffer' }),
  ];
  return plan;
}

async function printed(page: Page, name: string): Promise<string[]> {
  const path = `${ARTIFACTS}${name}.pdf`;
  await page.pdf({ path, format: 'A4', printBackground: true });
  pdfToPngs(path, `${ARTIFACTS}${name}`);
  return pdfText(path).split('\f').filter((part) => part.trim() !== '');
}

describe('paper', () => {
  it('hyphenates in the page language instead of cutting a word in a narrow lane', async () => {
    const { page, pageErrors } = await visit(german().browser.context, onServer(german().server.url, await createLink(german().server.url, compoundWordsPlan())));
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    await page.emulateMedia({ media: 'print' });
    // Hyphenation by the browser's dictionary for the page's language; where a browser has none, a word that fits a
    // lane's line is kept whole, and only a word longer than the line is ever broken.
    for (const selector of ['[data-item-id="z1"] .item-title', '[data-item-id="z1"] .item-description'])
      expect(await page.locator(selector).evaluate((node) => [getComputedStyle(node).hyphens, getComputedStyle(node).overflowWrap]), selector).toEqual(['auto', 'break-word']);
    const text = (await printed(page, 'viewer-de-print-lanes')).join('\n');
    for (const word of ['Zusammenarbeit', 'Kundenfeedback', 'Projektmanagement', 'Verantwortung', 'Entscheidungswege', 'Moderationskoffer']) {
      const [head, tail] = [word.slice(0, 4), word.slice(-3)];
      const pieces = new RegExp(`${head}[^\\s]*\\s*\\n[^\\n]*?\\S*${tail}`).exec(text)?.[0];
      // Either the word is whole on one line, or a line ends in a hyphen inside it.
      expect(text.includes(word) || /-\s*\n/.test(pieces ?? ''), `${word}: ${JSON.stringify(pieces)}`).toBe(true);
    }
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('never leaves the last block alone on the last page', async () => {
    const { page } = await visit(english().browser.context, `${english().server.url}/`);
    let checked = 0;
    // Plans of 14 to 30 plain blocks: one of these sizes puts the last block at the top of a new page on A4.
    for (let count = 14; count <= 30; count += 1) {
      const plan = { ...workshopPlan(), items: Array.from({ length: count }, (_, index) => block(`b${index}`, `Block number ${index + 1}`, 15, { description: 'A line of description that takes some room.' })) };
      await page.goto(onServer(english().server.url, await createLink(english().server.url, plan)));
      await page.waitForSelector('#app[data-state="plan"]');
      const pages = await printed(page, 'viewer-en-print-last');
      if (pages.length < 2) continue;
      checked += 1;
      const last = pages[pages.length - 1]!;
      expect(last.match(/Block number \d+/g)?.length ?? 0, `${count} blocks: the last page holds ${JSON.stringify(last.slice(0, 200))}`).toBeGreaterThanOrEqual(2);
    }
    expect(checked).toBeGreaterThan(5);
    await page.close();
  });
});

/** The plan's items `times` times over, with ids made unique: a long plan of hand-written entries. */
function repeatedPlan(plan: Plan, times: number): Plan {
  const items = Array.from({ length: times }, (_, round) => JSON.parse(JSON.stringify(plan['items']).replace(/"id":"([^"]+)"/g, `"id":"$1-${round}"`)));
  return { ...plan, items: items.flat() };
}

describe('scrolling', () => {
  /** The page's height at the top, then after each scroll by most of a screen down to the end, in px. */
  async function heightsWhileScrolling(page: Page): Promise<number[]> {
    const heights = [await page.evaluate(() => document.documentElement.scrollHeight)];
    for (let step = 0; step < 400; step += 1) {
      const [height, bottom] = await page.evaluate(async () => {
        scrollBy(0, innerHeight * 0.9);
        // Two frames: the parts that scrolled near are laid out in the first, and the height is read after it.
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        return [document.documentElement.scrollHeight, scrollY + innerHeight];
      });
      heights.push(height);
      if (bottom >= height - 1) break;
    }
    return heights;
  }

  it('keeps the page height within 5 % of its final height while a long plan scrolls into view, on a phone and a laptop', async () => {
    // Plans of hand-written and generated entries, with short and long texts, groups and breakouts.
    const plans: [string, Plan][] = [
      ['German workshop', germanWorkshopPlan()],
      ['German workshop four times', repeatedPlan(germanWorkshopPlan(), 4)],
      ['200 items', generatePlan({ seed: 7, items: 200, textPerItem: 120 })],
      ['120 long items', generatePlan({ seed: 3, items: 120, textPerItem: 500 })],
      ['60 items', generatePlan({ seed: 5, items: 60, textPerItem: 40 })],
    ];
    for (const [name, plan] of plans) {
      const url = onServer(german().server.url, await createLink(german().server.url, plan));
      for (const width of [390, 1280]) {
        const { page, pageErrors } = await visit(german().browser.context, url);
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
        await page.reload();
        await page.waitForSelector('#app[data-state="plan"]');
        const heights = await heightsWhileScrolling(page);
        const final = heights[heights.length - 1]!;
        const worst = Math.max(...heights.map((height) => Math.abs(height - final) / final));
        expect(worst, `${name} at ${width} px: heights ${heights.join(', ')}`).toBeLessThanOrEqual(0.05);
        expect(pageErrors).toEqual([]);
        await page.close();
      }
    }
  });
});
