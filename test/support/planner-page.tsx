// In-page entry of the planner harness (until the viewer loads the editor itself): opens #data=v2:… or a new plan, in edit mode.
import { loadCodec } from '../../src/codec/browser.js';
import { emptyDraft } from '../../src/planner/factory.js';
import { plannerStrings, type PlannerLanguage } from '../../src/planner/i18n/index.js';
import type { Draft } from '../../src/planner/tree.js';
import { mountEditor } from '../../src/planner/ui/mount.js';
import { createSessionOperations } from '../../src/session/operations.js';

const container = document.getElementById('app')!;
const wasm = document.documentElement.dataset['wasm']!;
const language: PlannerLanguage = new URLSearchParams(location.search).get('lang') === 'de' ? 'de' : 'en';
document.documentElement.lang = language;
const getCodec = () => loadCodec(new URL(wasm, location.href));
const codec = await getCodec();
const hash = location.hash;
let draft: Draft;
let openedLink: string | null = null;
if (hash.startsWith('#data=')) {
  const decoded = await createSessionOperations(getCodec).decodeSessionLink(hash);
  draft = decoded.session as unknown as Draft;
  openedLink = location.href;
} else draft = emptyDraft(plannerStrings(language).newParts);
performance.mark('sessionplan:edit-start');
const mounted = mountEditor({
  container,
  codec,
  baseUrl: `${location.origin}/`,
  draft,
  openedLink,
  language,
  onDone: () => {
    container.dataset['state'] = 'done';
  },
});
// Laid out inside the measurement: what the reader waits for is the editor on screen, not only its DOM.
void container.offsetHeight;
performance.mark('sessionplan:edit-ready');
container.dataset['state'] = 'editing';
(globalThis as { planner?: unknown }).planner = mounted.planner;
