// Turns a failure to open a link into the words of a problem page: one plain sentence for a participant, details folded.
import { SessionError } from '../session/errors.js';
import type { Strings } from '../plan-view/i18n/strings.js';
import type { ProblemText } from '../plan-view/render-problem.js';

/** One sentence a participant can act on, chosen from the decoder's message (which is for whoever made the link). */
export function plainSentence(error: SessionError, strings: Strings): string {
  const text = error.message;
  if (/legacy|prefix|dynamic server link|not a snapshot link/.test(text)) return strings.legacyLink;
  if (/too large|budget|at most/.test(text)) return strings.tooLarge;
  return strings.brokenLink;
}

/** The problem page for any failure of opening a link: a SessionError (the link) or anything else (loading the page's parts). */
export function describeFailure(error: unknown, strings: Strings): ProblemText {
  if (error instanceof SessionError) {
    return {
      title: strings.cannotOpenTitle,
      message: plainSentence(error, strings),
      details: { message: error.message.replace(/^[A-Z_]+:\s*/, ''), hint: `${strings.errorHints[error.code]} (${error.code})` },
    };
  }
  return {
    title: strings.loadFailedTitle,
    message: strings.loadFailedMessage,
    details: { message: error instanceof Error ? error.message : String(error), hint: strings.loadFailedHint },
  };
}
