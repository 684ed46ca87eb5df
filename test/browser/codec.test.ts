// The browser codec's string transfer in real Chromium, under the viewer page's CSP: the wasm:js-string reader is active and exact, ASCII payloads go in as bytes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodecError, loadCodec } from '../../src/codec/node.js';
import type { StartedServer } from '../../src/server/start-server.js';
import type { ChromiumHandle } from '../support/chromium.js';
import type { StringTransferCheck } from '../support/page-codec.js';
import { callPageCodec, openViewerPage, type ViewerManifest, type ViewerPage } from '../support/viewer-harness.js';

let server: StartedServer;
let browser: ChromiumHandle;
let manifest: ViewerManifest;

let viewer: ViewerPage | undefined;

beforeAll(async () => {
  viewer = await openViewerPage();
  ({ manifest, browser, server } = viewer);
});

afterAll(() => viewer?.close());

/** Refused payloads of every kind, including non-ASCII ones (those take the UTF-16 path, so positions stay in characters). */
const REFUSED = ['Q!', 'wA1', 'QA', 'BYUwNmD2AEDukCc', 'BYUwNmD2AEDukCc!', 'BYUwNmD2AEDukCcÄ', 'NoIg\uD800Lg', '😀😀', 'A'.repeat(750_001)];

async function nodeRefusal(payload: string): Promise<string> {
  const codec = await loadCodec();
  try {
    codec.decompress(payload);
    return 'accepted';
  } catch (error) {
    return error instanceof CodecError ? `${error.code}: ${error.message}` : `not a CodecError: ${String(error)}`;
  }
}

describe('browser string transfer (Chromium)', () => {
  let check: StringTransferCheck;

  beforeAll(async () => {
    const page = await browser.context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${server.url}/`);
    check = await page.evaluate(callPageCodec('checkStringTransfer', `/assets/${manifest.assets.wasm}`, REFUSED)) as StringTransferCheck;
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('uses the wasm:js-string builtin reader (compiled under the viewer CSP), not the fromCharCode fallback', () => {
    expect(check.builtins, 'Chromium ≥ 130 ships WebAssembly JS String Builtins; without them decompress is about 2× slower in the page').toBe(true);
  });

  it('reads every code unit back exactly: all 65,536 in one string, BOM first, lone surrogates at either end, empty', () => {
    expect(check.readMismatches).toEqual([]);
  });

  it('sends ASCII payloads as bytes and everything else as UTF-16', () => {
    // Payloads over the length budget are refused before anything is written.
    const written = REFUSED.filter((payload) => payload.length <= 750_000);
    const ascii = written.filter((payload) => /^[\x00-\x7f]*$/.test(payload)).length;
    expect(check.roundTrips).toBeGreaterThanOrEqual(7);
    expect(check.asciiWrites).toBe(check.roundTrips + ascii);
    expect(check.utf16Writes).toBe(written.length - ascii);
    expect(check.utf16Writes).toBe(3);
  });

  it('refuses bad payloads with the same code and message as the Node codec', async () => {
    const expected = await Promise.all(REFUSED.map(nodeRefusal));
    expect(expected.every((refusal) => refusal !== 'accepted' && !refusal.startsWith('not a'))).toBe(true);
    expect(check.refusals).toEqual(expected);
  });
});
