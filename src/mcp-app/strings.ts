// The plan view's own words, one table per language. Everything else it shows (the plan, its dates and durations,
// "Opening the plan…", "This link cannot be opened") comes from the viewer's tables (viewer/i18n/).
import type { Language } from '../plan-view/i18n/strings.js';

export interface ViewStrings {
  readonly openInSessionplan: string;
  readonly linkNotOpened: string;
  readonly createFailed: string;
  readonly cancelled: string;
  readonly notShown: string;
  /** What a create result says when its plan is not at hand (no input arrived): blocks and the formatted duration. */
  readonly summary: (blocks: number, duration: string) => string;
  /** The given link pointed to another site than this server's: the button opens the same plan here instead. */
  readonly otherOrigin: (origin: string, own: string) => string;
}

const en: ViewStrings = {
  openInSessionplan: 'Open in Sessionplan',
  linkNotOpened: 'The link could not be opened from here.',
  createFailed: 'This plan could not be turned into a link.',
  cancelled: 'The request was cancelled before the plan arrived.',
  notShown: 'This plan cannot be shown here.',
  summary: (blocks, duration) => `${blocks} ${blocks === 1 ? 'block' : 'blocks'}, ${duration}`,
  otherOrigin: (origin, own) => `The link you gave points to ${origin}. The button opens the same plan on ${own} instead.`,
};

const de: ViewStrings = {
  openInSessionplan: 'In Sessionplan öffnen',
  linkNotOpened: 'Der Link ließ sich von hier aus nicht öffnen.',
  createFailed: 'Aus diesem Plan ließ sich kein Link erstellen.',
  cancelled: 'Die Anfrage wurde abgebrochen, bevor der Plan ankam.',
  notShown: 'Dieser Plan lässt sich hier nicht anzeigen.',
  summary: (blocks, duration) => `${blocks} ${blocks === 1 ? 'Block' : 'Blöcke'}, ${duration}`,
  otherOrigin: (origin, own) => `Der angegebene Link führt zu ${origin}. Die Schaltfläche öffnet denselben Plan stattdessen auf ${own}.`,
};

export const VIEW_STRINGS: Readonly<Record<Language, ViewStrings>> = { de, en };
