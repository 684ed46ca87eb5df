// Edit mode's entry (loaded on demand): builds the planner for a draft, renders the editor and keeps the address bar on its link.
import { render } from 'preact';
import { workerEncoder } from '../encoder.js';
import { emptyDraft } from '../factory.js';
import type { EditorHost } from '../host.js';
import { plannerStrings, type PlannerLanguage } from '../i18n/index.js';
import { Planner, type PlannerState } from '../planner.js';
import type { Draft } from '../tree.js';
import type { Signal } from '@preact/signals';
import type { LibraryCatalogue } from '../../library/catalogue.js';
import { createEditorContext, Editor, type AddressBar } from './context.js';
import { EditorRoot } from './editor.js';
import { focusProblem } from './problem-links.js';

/** The planner's worker bundle (src/planner/worker.ts) next to this bundle; set by src/viewer/build.mjs. */
declare const __PLANNER_WORKER_FILE__: string;

export interface MountOptions {
  readonly container: HTMLElement;
  /** The page's create code, bound to `${location.origin}/`: links made here are those the server makes with that PUBLIC_BASE_URL. */
  readonly host: EditorHost;
  /** The plan to edit; null starts a new one ("New plan"). */
  readonly draft: Draft | null;
  /** The link the plan was opened from (kept while an older document's warnings are unresolved). */
  readonly openedLink: string | null;
  readonly language: PlannerLanguage;
  /** The page's library of methods and templates, fetched on first use ("Insert method"). */
  readonly library?: () => Promise<LibraryCatalogue>;
  /** "Done": the editor is gone; the page shows the plan of the link in the address bar. */
  readonly onDone: (state: PlannerState) => void;
}

export interface MountedEditor {
  readonly planner: Planner;
  /** Removes the editor as it is (another link was opened): a link still waiting for a typing pause is not written. */
  unmount(): void;
}

/**
 * Links from this length on are written to the address bar once typing pauses rather than per keystroke: Chromium's
 * replaceState grows steeply with the URL (and the tab waits for the browser process on top of that), which would
 * freeze typing in a large plan.
 */
export const LONG_LINK_CHARS = 30_000;
/** The pause after which a long link is written (and at once when the field is left or any other edit is made). */
export const LONG_LINK_PAUSE_MS = 400;

/**
 * Writes each new link to the address bar with history.replaceState: the link is the save, and Back still leaves
 * the page instead of stepping through keystrokes (undo does that). No hashchange fires, so the view does not reopen.
 * A link is written when its check answers (planner.ts), so typing itself never waits for the codec. `addressBar`
 * follows what was written, and says when the present draft's link will wait for typing to pause: the status shows
 * that, so a check's answer to a keystroke in a long plan changes nothing on screen, and the status changes in the
 * frame that follows the write (one frame per keystroke fewer).
 */
function followLinks(planner: Planner, now: boolean, addressBar: Signal<AddressBar>): { stop(): void; flush(): void } {
  let written = location.href;
  let pending: ReturnType<typeof setTimeout> | undefined;
  const show = (link: string | null, behind: boolean) => {
    const shown = addressBar.peek();
    if (shown.link !== link || shown.behind !== behind) addressBar.value = { link, behind };
  };
  const write = () => {
    clearTimeout(pending);
    pending = undefined;
    const link = planner.state.link;
    if (link === null || link === written) return;
    history.replaceState(history.state, '', link);
    written = link;
    show(link, false);
    performance.mark('sessionplan:link-written');
  };
  const long = (link: string) => link.length >= LONG_LINK_CHARS && planner.typing;
  const follow = (state: PlannerState) => {
    if (state.link === null || state.link === written) {
      // Nothing new to write. While a keystroke's answer is due in a long plan, its link will wait for the pause.
      show(addressBar.peek().link, state.pending && state.link !== null && state.link !== undefined && long(state.link));
      return;
    }
    if (!long(state.link)) write();
    else {
      show(addressBar.peek().link, true);
      clearTimeout(pending);
      pending = setTimeout(write, LONG_LINK_PAUSE_MS);
    }
  };
  // A new plan gets its link as soon as its first check answers; an opened plan keeps its link until the first change.
  if (now) write();
  const unsubscribe = planner.subscribe(follow);
  return {
    stop() {
      clearTimeout(pending);
      unsubscribe();
    },
    flush: write,
  };
}

export function mountEditor(options: MountOptions): MountedEditor {
  const strings = plannerStrings(options.language);
  const draft = options.draft ?? emptyDraft(strings.newParts);
  const { host } = options;
  // Validation and compression in a worker: the page keeps only the edit, the rendering and the address bar's write.
  const encoder = workerEncoder(new URL(__PLANNER_WORKER_FILE__, import.meta.url), host.baseUrl, host.encode);
  const planner = new Planner({ host, encoder, draft, openedLink: options.openedLink, labels: strings.newParts });
  const context = createEditorContext(planner, strings, options.openedLink);
  const links = followLinks(planner, options.openedLink === null, context.addressBar);
  // Leaving a field ends its typing step: a long link waiting for the pause is written then.
  const flushOnLeave = () => queueMicrotask(() => {
    if (!planner.typing) links.flush();
  });
  options.container.addEventListener('focusout', flushOnLeave);
  let mounted = true;
  const unmount = () => {
    if (!mounted) return;
    mounted = false;
    options.container.removeEventListener('focusout', flushOnLeave);
    links.stop();
    planner.close();
    render(null, options.container);
  };
  // Leaving: the view opens the link in the address bar, which holds the last valid plan.
  const leave = (state: PlannerState) => {
    links.flush();
    unmount();
    options.onDone(state);
  };
  // "Done": the last edit's check is awaited and its link written, so the view opens the plan as it was left. With a
  // field still invalid the editor stays: leaving would silently show the last valid plan, not what is on screen.
  const done = async () => {
    planner.finishEdit();
    const state = await planner.settled().catch(() => planner.state);
    if (!mounted) return;
    if (!state.valid && state.problems.length > 0) {
      context.leaving.value = true;
      focusProblem(context, state.problems[0]!.path);
      return;
    }
    leave(state);
  };
  render(
    <Editor.Provider value={context}>
      <EditorRoot onDone={() => void done()} onDiscard={() => leave(planner.state)} library={options.library} />
    </Editor.Provider>,
    options.container,
  );
  return { planner, unmount };
}
