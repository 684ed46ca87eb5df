// Edit mode's entry (loaded on demand): builds the planner for a draft, renders the editor and keeps the address bar on its link.
import { render } from 'preact';
import type { Codec } from '../../codec/types.js';
import { plannerStrings, type PlannerLanguage } from '../i18n/index.js';
import { Planner, type PlannerState } from '../planner.js';
import type { Draft } from '../tree.js';
import { createEditorContext, Editor } from './context.js';
import { EditorRoot } from './editor.js';

export interface MountOptions {
  readonly container: HTMLElement;
  readonly codec: Codec;
  /** The page's `${location.origin}/`: links made here are those the server makes with that PUBLIC_BASE_URL. */
  readonly baseUrl: string;
  readonly draft: Draft;
  /** The link the plan was opened from (kept while an older document's warnings are unresolved). */
  readonly openedLink: string | null;
  readonly language: PlannerLanguage;
  /** "Done": the editor is gone; the page shows the plan of the link in the address bar. */
  readonly onDone: (state: PlannerState) => void;
}

export interface MountedEditor {
  readonly planner: Planner;
  unmount(): void;
}

/**
 * Writes each new link to the address bar with history.replaceState: the link is the save, and Back still leaves
 * the page instead of stepping through keystrokes (undo does that). No hashchange fires, so the view does not reopen.
 */
function followLinks(planner: Planner, now: boolean): () => void {
  let written = location.href;
  const write = (state: PlannerState) => {
    if (state.link === null || state.link === written) return;
    history.replaceState(history.state, '', state.link);
    written = state.link;
    performance.mark('sessionplan:link-written');
  };
  // A new plan has no link yet: it gets one at once. An opened plan keeps its link until the first change.
  if (now) write(planner.state);
  return planner.subscribe(write);
}

export function mountEditor(options: MountOptions): MountedEditor {
  const strings = plannerStrings(options.language);
  const planner = new Planner({ codec: options.codec, baseUrl: options.baseUrl, draft: options.draft, openedLink: options.openedLink, labels: strings.newParts });
  const context = createEditorContext(planner, strings);
  const stopFollowing = followLinks(planner, options.openedLink === null);
  const unmount = () => {
    stopFollowing();
    render(null, options.container);
  };
  const done = () => {
    const state = planner.state;
    unmount();
    options.onDone(state);
  };
  render(
    <Editor.Provider value={context}>
      <EditorRoot onDone={done} />
    </Editor.Provider>,
    options.container,
  );
  return { planner, unmount };
}
