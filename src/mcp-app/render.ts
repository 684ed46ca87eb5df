// The view's page: an action bar ("Open in Sessionplan") above the plan, which the viewer's own renderers draw.
import { el } from '../plan-view/dom.js';
import type { ViewerLocale } from '../plan-view/i18n/locale.js';
import type { Plan } from '../plan-view/plan.js';
import { renderPlan } from '../plan-view/render-plan.js';
import { renderProblem } from '../plan-view/render-problem.js';
import { categoryStyleSheet, labelStyleSheet } from '../plan-view/style-sheets.js';
import type { ViewStrings } from './strings.js';

/** `data-state` of the view's root tells readers of the DOM (and tests) what is shown. */
export type ViewState = 'waiting' | 'plan' | 'problem' | 'summary';

/** Everything the page says: the viewer's locale (plan words, dates, durations) and the view's own words. */
export interface ViewWords {
  readonly locale: ViewerLocale;
  readonly view: ViewStrings;
}

export interface ViewPage {
  /** Shows a plan (header, warnings, timeline), all of it in this task, laid out; returns when it is. */
  showPlan(plan: Plan, warnings: readonly string[]): void;
  /** A plain sentence for the person, and what the tool said below it. */
  showProblem(sentence: string, detail: string): void;
  showWaiting(): void;
  /** What a create result says when the plan itself is not at hand: its title and one line of figures. */
  showSummary(title: string, line: string): void;
  /** Shows the button for `url` (or hides it: undefined); a click calls `open`. `note`: a plain line beside it ('' none). */
  offerLink(url: string | undefined, open: (url: string) => void, note?: string): void;
  /** One line under the button (e.g. when the host did not open the link); '' clears it. */
  setStatus(text: string): void;
  /** The words to use from now on (the host's locale changed); what is shown is drawn again by the caller. */
  setWords(words: ViewWords): void;
}

export function createViewPage(root: HTMLElement, initial: ViewWords): ViewPage {
  let words = initial;
  const button = el('button', 'open-link', words.view.openInSessionplan);
  button.type = 'button';
  button.hidden = true;
  const status = el('p', 'view-status');
  status.setAttribute('role', 'status');
  // Names another site as text only (the given link's origin); isolated, so its characters cannot reorder the sentence.
  const note = el('p', 'view-note');
  note.dir = 'auto';
  note.hidden = true;
  const actions = el('div', 'view-actions', button, status, note);
  const content = el('div', 'view-content');
  root.replaceChildren(actions, content);
  let link: string | undefined;
  let open: (url: string) => void = () => {};
  button.addEventListener('click', () => {
    if (link !== undefined) open(link);
  });
  // The person in the chat is the one planning: the facilitator's notes are part of what they see (the viewer page
  // folds them for participants, to whom links are passed on).
  document.documentElement.dataset['notes'] = 'shown';

  const show = (state: ViewState, node: HTMLElement): void => {
    root.dataset['state'] = state;
    content.replaceChildren(node);
  };

  return {
    showPlan(plan, warnings) {
      document.adoptedStyleSheets = [labelStyleSheet(words.locale), categoryStyleSheet(plan)];
      const rendering = renderPlan(plan, warnings, words.locale);
      show('plan', rendering.view);
      // As on the viewer page: the first screens laid out one entry at a time, the rest in one insertion whose parts
      // the browser lays out when they come near the viewport (or when the host makes the frame tall enough).
      rendering.fillFirstScreen();
      // What the reader sees first is laid out here; the rest is most of the DOM (bench/app-view.bench.ts reads the mark).
      performance.mark('sessionplan-view:first-screen');
      rendering.appendRest();
      void root.offsetHeight;
    },
    showProblem(sentence, detail) {
      const problem = renderProblem({ title: sentence, message: detail }, words.locale.strings, { alert: true });
      // The tools answer in English whatever the host's language: read it as English.
      problem.querySelector('.problem-message')?.setAttribute('lang', 'en');
      show('problem', problem);
    },
    showWaiting() {
      show('waiting', el('p', 'loading', words.locale.strings.loading));
    },
    showSummary(title, line) {
      show('summary', el('section', 'plan-header', el('h1', 'plan-title', title), el('p', 'plan-meta', line)));
    },
    offerLink(url, onOpen, text = '') {
      link = url;
      open = onOpen;
      button.hidden = url === undefined;
      note.textContent = text;
      note.hidden = text === '';
    },
    setStatus(text) {
      status.textContent = text;
    },
    setWords(next) {
      words = next;
      document.documentElement.lang = next.locale.language;
      button.textContent = next.view.openInSessionplan;
    },
  };
}
