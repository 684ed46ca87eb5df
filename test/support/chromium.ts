// Test helper: Debian's Chromium driven by playwright-core (headless, no sandbox, background networking off, fresh profile).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const INSTALL_CHROMIUM_HINT = 'install chromium: apt-get install chromium';

/** Flags that keep Chromium from reaching out to the (closed) network at start and while running. */
const CHROMIUM_ARGS = [
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
export async function launchChromium(executablePath = CHROMIUM_PATH, options: ChromiumOptions = {}): Promise<ChromiumHandle> {
  if (!existsSync(executablePath)) throw new Error(`Chromium is not at ${executablePath}; ${INSTALL_CHROMIUM_HINT}`);
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
