// The view's page: an action bar ("Open in Sessionplan") above the plan, which the viewer's own renderers draw.
import { el } from '../viewer/dom.js';
import type { Plan } from '../viewer/plan.js';
import { categoryStyleSheet, renderPlan, renderProblem } from '../viewer/render-plan.js';
import type { ViewStrings } from './strings.js';

/** `data-state` of the view's root tells readers of the DOM (and tests) what is shown. */
export type ViewState = 'waiting' | 'plan' | 'problem' | 'summary';

export interface ViewPage {
  /** Shows a plan (header, warnings, timeline), all of it in this task, laid out; returns when it is. */
  showPlan(plan: Plan, warnings: readonly string[]): void;
  /** A plain sentence for the person, and what the tool said below it. */
  showProblem(sentence: string, detail: string): void;
  showWaiting(text: string): void;
  /** What a create result says when the plan itself is not at hand: its title and one line of figures. */
  showSummary(title: string, line: string): void;
  /** Shows the button for `url` (or hides it: undefined); a click calls `open`. */
  offerLink(url: string | undefined, open: (url: string) => void): void;
  /** One line under the button (e.g. when the host did not open the link); '' clears it. */
  setStatus(text: string): void;
  /** Re-labels the view's own controls (the host's locale changed). */
  relabel(strings: ViewStrings): void;
}

export function createViewPage(root: HTMLElement, strings: ViewStrings): ViewPage {
  const button = el('button', 'open-link', strings.openInSessionplan);
  button.type = 'button';
  button.hidden = true;
  const status = el('p', 'view-status');
  status.setAttribute('role', 'status');
  const actions = el('div', 'view-actions', button, status);
  const content = el('div', 'view-content');
  root.replaceChildren(actions, content);
  let link: string | undefined;
  let open: (url: string) => void = () => {};
  button.addEventListener('click', () => {
    if (link !== undefined) open(link);
  });

  const show = (state: ViewState, node: HTMLElement): void => {
    root.dataset['state'] = state;
    content.replaceChildren(node);
  };

  return {
    showPlan(plan, warnings) {
      document.adoptedStyleSheets = [categoryStyleSheet(plan)];
      const rendering = renderPlan(plan, warnings);
      show('plan', rendering.view);
      // As on the viewer page: the first screens laid out one entry at a time, the rest in one insertion whose parts
      // the browser lays out when they come near the viewport (or when the host makes the frame tall enough).
      rendering.fillFirstScreen();
      rendering.appendRest();
      void root.offsetHeight;
    },
    showProblem(sentence, detail) {
      const problem = renderProblem(sentence, detail);
      // The tools answer in English whatever the host's language: read it as English.
      problem.querySelector('.problem-message')?.setAttribute('lang', 'en');
      show('problem', problem);
    },
    showWaiting(text) {
      show('waiting', el('p', 'loading', text));
    },
    showSummary(title, line) {
      show('summary', el('section', 'plan-header', el('h1', 'plan-title', title), el('p', 'plan-meta', line)));
    },
    offerLink(url, onOpen) {
      link = url;
      open = onOpen;
      button.hidden = url === undefined;
    },
    setStatus(text) {
      status.textContent = text;
    },
    relabel(next) {
      button.textContent = next.openInSessionplan;
    },
  };
}
