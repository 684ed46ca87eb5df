// Test helper for the planner in Chromium: rows found by accessible names, and the check run after every step.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import LZString from 'lz-string';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The row of an item, found through its "Details: <title>" button. */
export function row(page: Page, detailsName: string): Locator {
  return page.getByRole('button', { name: detailsName, exact: true }).locator('xpath=ancestor::li[1]');
}

/**
 * The address bar, read in the page: Playwright's page.url() follows replaceState through an asynchronous event and
 * can lag a step behind. In edit mode it is read once the present draft's check has answered (the editor's status
 * says so with data-pending): a short link is written as that answer arrives.
 */
export async function addressBar(page: Page): Promise<string> {
  await page.waitForFunction(() => document.querySelector('.edit-status[data-pending="true"]') === null, undefined, { timeout: 10_000 });
  return page.evaluate(() => location.href);
}

/** The session in the address bar's link, decoded with the lz-string package (not the project's codec). */
export async function documentInAddressBar(page: Page): Promise<{ fragment: string; session: Record<string, any> }> {
  const url = await addressBar(page);
  const at = url.indexOf('#data=v2:');
  expect(at, `no snapshot link in the address bar: ${url}`).toBeGreaterThan(0);
  const fragment = url.slice(at);
  const text = LZString.decompressFromEncodedURIComponent(fragment.slice('#data=v2:'.length));
  expect(typeof text).toBe('string');
  return { fragment, session: JSON.parse(text as string) as Record<string, any> };
}

/**
 * After each step: the address bar holds a link on the page's origin whose document (decoded by lz-string) the running
 * server's REST create accepts and turns into the same snapshot. Returns the document.
 */
export async function checkLink(page: Page, serverUrl: string): Promise<Record<string, any>> {
  expect((await addressBar(page)).startsWith(`${serverUrl}/`)).toBe(true);
  const { fragment, session } = await documentInAddressBar(page);
  const response = await fetch(`${serverUrl}/api/session-links`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session }) });
  const body = (await response.json()) as { link?: string; error?: unknown };
  expect(response.status, JSON.stringify(body)).toBe(200);
  expect(body.link!.slice(body.link!.indexOf('#'))).toBe(fragment);
  return session;
}

/** axe-core in the page: the serious and critical violations (id and the first offending node's selector). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // The page's CSP forbids inline scripts; evaluation through the DevTools protocol is not subject to it.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, target: violation.nodes[0]?.target.join(' ') ?? '' }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id} at ${violation.target}`);
}

/** An action of the edit toolbar's menu ("More" / "Mehr"), opened if it is closed. */
export async function editMenuItem(page: Page, name: string): Promise<Locator> {
  const more = page.locator('.edit-toolbar .menu-button');
  if (await more.getAttribute('aria-expanded') !== 'true') await more.click();
  return page.getByRole('menuitem', { name, exact: true });
}
