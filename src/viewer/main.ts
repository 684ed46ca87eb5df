// Viewer entry: decodes the #data=v2:… fragment in the browser with the WASM codec and renders the plan; re-renders on hashchange.
import { loadCodec } from '../codec/browser.js';
import type { Codec } from '../codec/types.js';
import { SESSION_ERROR_CODES, SessionError } from '../session/errors.js';
import { createSessionOperations } from '../session/operations.js';
import { categoryStyleSheet, renderPlan, renderProblem } from './render-plan.js';

/** The content-hashed codec file next to this bundle; set by build.mjs. */
declare const __CODEC_WASM_FILE__: string;

const app = document.getElementById('app') ?? document.body;
let generation = 0;

/** loadCodec keeps one codec per URL and forgets a failed load, so the next hashchange tries again. */
const getCodec = (): Promise<Codec> => loadCodec(new URL(__CODEC_WASM_FILE__, import.meta.url));

const operations = createSessionOperations(getCodec, { baseUrl: `${location.origin}/` });

/** `data-state` tells readers of the DOM (and tests) where the page is: rendering → plan, or problem. */
function show(state: 'rendering' | 'plan' | 'problem', content: HTMLElement): void {
  app.dataset['state'] = state;
  app.replaceChildren(content);
}

/** Decodes and renders the current fragment; a newer hashchange wins over a slower older one. */
async function open(): Promise<void> {
  const current = ++generation;
  const fragment = location.hash;
  if (fragment === '' || fragment === '#') {
    show('problem', renderProblem('No plan in this link', 'This address holds no plan. Open the complete link you were sent, including everything after the # sign.'));
    document.title = 'Sessionplan snapshot';
    return;
  }
  try {
    await getCodec();
    performance.mark('sessionplan:decode-start');
    const { session, warnings } = await operations.decodeSessionLink(fragment);
    performance.mark('sessionplan:decode-end');
    if (current !== generation) return;
    document.adoptedStyleSheets = [categoryStyleSheet(session)];
    const rendering = renderPlan(session, warnings ?? []);
    show('rendering', rendering.view);
    document.title = `${session.workshop.title} · Sessionplan`;
    // The first screen is laid out inside the measurement (fillFirstScreen forces layout as it goes), so the figure
    // covers what the reader waits for, not just DOM building.
    rendering.fillFirstScreen();
    void app.offsetHeight;
    performance.mark('sessionplan:first-screen');
    // The rest in the same task with one insertion: appending it in chunks over several tasks cost a style, layout and
    // paint pass per chunk, about twice the CPU of doing it once. Its parts skip layout while off screen (styles.css).
    rendering.appendRest();
    void app.offsetHeight;
    app.dataset['state'] = 'plan';
    performance.mark('sessionplan:render-end');
    performance.measure('sessionplan:decode', 'sessionplan:decode-start', 'sessionplan:decode-end');
    performance.measure('sessionplan:first-screen', 'sessionplan:decode-start', 'sessionplan:first-screen');
    performance.measure('sessionplan:open', 'sessionplan:decode-start', 'sessionplan:render-end');
  } catch (error) {
    if (current !== generation) return;
    show('problem', describeFailure(error));
    document.title = 'Sessionplan snapshot: cannot open this link';
  }
}

/** One sentence a participant can act on; the decoder's own message stays in the folded details. */
function plainSentence(error: SessionError): string {
  const text = error.message;
  if (/legacy|prefix|dynamic server link|not a snapshot link/.test(text))
    return 'This link was made by an older version of Sessionplan or points to a stored plan, which this page cannot open. Ask the person who shared it for a current snapshot link.';
  if (/too large|budget|at most/.test(text)) return 'This plan is too large to be opened here. Ask the person who made it to split it into smaller plans.';
  return 'This link is incomplete or was changed on the way, so the plan in it cannot be read. Ask the person who shared it to send the complete link again.';
}

function describeFailure(error: unknown): HTMLElement {
  if (error instanceof SessionError) {
    const hint = SESSION_ERROR_CODES[error.code];
    return renderProblem('This link cannot be opened', plainSentence(error), {
      message: error.message.replace(/^[A-Z_]+:\s*/, ''),
      hint: `${hint.charAt(0).toUpperCase()}${hint.slice(1)}. (${error.code})`,
    });
  }
  return renderProblem('The plan could not be shown', 'This page could not load what it needs to show the plan. Reload the page; if it keeps failing, try again later.', {
    message: error instanceof Error ? error.message : String(error),
    hint: 'The decoder (codec .wasm) could not be loaded from this server.',
  });
}

window.addEventListener('hashchange', () => void open());
void open();
