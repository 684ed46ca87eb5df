// Test helper for the viewer page: links over the real REST API, visits that record errors and network, axe-core, artefacts.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Locator, Page, Request, Response } from 'playwright-core';
import { expect } from 'vitest';

/** Screenshots, PDFs and downloads of the browser tests (git-ignored), for people to look at. */
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
mkdirSync(ARTIFACTS, { recursive: true });

/** Creates a link over REST (as a script would) and returns it. */
export async function createLink(serverUrl: string, session: unknown): Promise<string> {
  const response = await fetch(`${serverUrl}/api/session-links`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session }) });
  const json = (await response.json()) as Record<string, unknown>;
  expect(response.status, JSON.stringify(json)).toBe(200);
  return json['link'] as string;
}

/** The same snapshot on the test server (links carry PUBLIC_BASE_URL; the fragment is the snapshot); `query` such as "?lang=de". */
export function onServer(serverUrl: string, linkOrFragment: string, query = ''): string {
  const hash = linkOrFragment.indexOf('#');
  return `${serverUrl}/${query}${hash === -1 ? '' : linkOrFragment.slice(hash)}`;
}

export interface Visit {
  page: Page;
  pageErrors: string[];
  consoleErrors: string[];
  requests: Request[];
  responses: Response[];
  document: Response | null;
}

/** The states the page settles in. */
export const SETTLED = '#app[data-state="plan"], #app[data-state="problem"], #app[data-state="empty"]';

/** Opens a URL in a fresh tab, recording errors and network, and waits until the viewer shows a plan, a problem or the empty page. */
export async function visit(context: BrowserContext, url: string): Promise<Visit> {
  const page = await context.newPage();
  const seen: Visit = { page, pageErrors: [], consoleErrors: [], requests: [], responses: [], document: null };
  page.on('pageerror', (error) => seen.pageErrors.push(error.message));
  page.on('console', (message) => { if (message.type() === 'error') seen.consoleErrors.push(message.text()); });
  page.on('request', (request) => seen.requests.push(request));
  page.on('response', (response) => seen.responses.push(response));
  seen.document = await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector(SETTLED, { timeout: 20_000 });
  return seen;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core (the npm package) in the page and returns its serious and critical violations. The source goes in
 * through the DevTools protocol, which the page's CSP does not govern, so the page under test stays exactly as served.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((node) => String(node.target)),
  })))`) as AxeViolation[];
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/** The `data-<key>` values of every element the selector matches, in document order. */
export function dataOf(page: Page, selector: string, key: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((nodes, name) => nodes.map((node) => (node as HTMLElement).dataset[name as string] ?? ''), key);
}

/** Opens the toolbar's menu ("More" or "Mehr") with a click and returns its item of that name, for the test to choose. */
export async function menuItem(page: Page, name: string): Promise<Locator> {
  const more = page.locator('.toolbar .menu-button');
  if (await more.getAttribute('aria-expanded') !== 'true') await more.click();
  return page.getByRole('menuitem', { name, exact: true });
}
