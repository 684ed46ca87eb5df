// Turns a failure to open a link into the words of a problem page: one plain sentence for a participant, details folded.
import { SessionError } from '../session/errors.js';
import { LinkRefusal } from '../session/link.js';
import type { Strings } from '../plan-view/i18n/strings.js';
import type { ProblemText } from '../plan-view/render-problem.js';

/** The sentence for each kind of link refused before its payload is read. */
function refusalSentence(error: LinkRefusal, strings: Strings): string {
  switch (error.kind) {
    case 'empty':
    case 'no-snapshot':
      return strings.noSnapshot;
    case 'dynamic-link':
      return strings.dynamicLink;
    case 'legacy-code':
      return strings.legacyLink;
    case 'newer-format':
      return strings.newerFormat;
    case 'broken':
      return strings.brokenLink;
  }
}

/** One sentence a participant can act on, chosen by what failed (the decoder's message is for whoever made the link). */
export function plainSentence(error: SessionError, strings: Strings): string {
  if (error instanceof LinkRefusal) return refusalSentence(error, strings);
  if (/too large|budget|at most/.test(error.message)) return strings.tooLarge;
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
