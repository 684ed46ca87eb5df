// What the reader sees instead of a plan: a title and one plain sentence, the technical details folded below.
import { el } from './dom.js';
import type { Strings } from './i18n/strings.js';

/** The words of a problem page; `details` (the decoder's own message and what to do) is for whoever made the link. */
export interface ProblemText {
  title: string;
  message: string;
  details?: { message: string; hint: string };
}

/**
 * A problem page, or the empty page when `alert` is false (nothing went wrong there). `extra` (the paste field) goes
 * after the sentence.
 */
export function renderProblem(problem: ProblemText, strings: Strings, options: { alert: boolean; extra?: HTMLElement }): HTMLElement {
  const section = el('section', options.alert ? 'problem' : 'problem problem--empty', el('h1', 'problem-title', problem.title), el('p', 'problem-message', problem.message));
  if (problem.details !== undefined) {
    section.append(el('details', 'problem-details',
      el('summary', 'problem-summary', strings.detailsSummary),
      el('p', 'problem-detail', problem.details.message),
      el('p', 'problem-hint', problem.details.hint)));
  }
  if (options.alert) section.setAttribute('role', 'alert');
  if (options.extra) section.append(options.extra);
  return section;
}
