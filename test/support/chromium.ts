// Test helper: Chromium (CHROMIUM_PATH, default Debian's /usr/bin/chromium) driven by playwright-core: headless, fresh profile.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

import { chromiumPath, DEFAULT_CHROMIUM_PATH } from './chromium-path.js';

export { chromiumPath, DEFAULT_CHROMIUM_PATH } from './chromium-path.js';

const INSTALL_CHROMIUM_HINT =
  'install chromium (apt-get install chromium) or set CHROMIUM_PATH to a Chromium or Chrome executable';

/** Flags that keep Chromium from reaching out to the (closed) network at start and while running. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface ChromiumOptions {
  /** The browser's language (navigator.languages, Accept-Language, Intl's default); default en-GB. */
  locale?: string;
}

export interface ChromiumHandle {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Starts Chromium with a new empty profile; fails with the install command when Chromium is missing. */
export async function launchChromium(executablePath = chromiumPath(), options: ChromiumOptions = {}): Promise<ChromiumHandle> {
  if (!existsSync(executablePath)) {
    throw new Error(`Chromium is not at ${executablePath} (browser tests launch CHROMIUM_PATH, default ${DEFAULT_CHROMIUM_PATH}); ${INSTALL_CHROMIUM_HINT}`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'sessionplan-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1200, height: 900 },
    locale: options.locale ?? 'en-GB',
    timezoneId: 'UTC',
    timeout: 30_000,
  });
  return {
    context,
    async close(): Promise<void> {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
