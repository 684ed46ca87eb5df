// The plan view's own words, one table per language (the plan itself is worded by the viewer's renderers).
import type { Language } from './host-context.js';

export interface ViewStrings {
  readonly waiting: string;
  readonly openInSessionplan: string;
  readonly linkNotOpened: string;
  readonly createFailed: string;
  readonly decodeFailed: string;
  readonly cancelled: string;
  readonly notShown: string;
  /** Shown when a create result arrives without its input: the plan itself is in the link. */
  readonly summary: (blocks: number, minutes: number) => string;
}

const en: ViewStrings = {
  waiting: 'Waiting for the plan…',
  openInSessionplan: 'Open in Sessionplan',
  linkNotOpened: 'The link could not be opened from here.',
  createFailed: 'This plan could not be turned into a link.',
  decodeFailed: 'This link could not be opened.',
  cancelled: 'The request was cancelled before the plan arrived.',
  notShown: 'This plan cannot be shown here.',
  summary: (blocks, minutes) => `${blocks} ${blocks === 1 ? 'block' : 'blocks'}, ${minutes} min`,
};

const de: ViewStrings = {
  waiting: 'Der Plan wird geladen …',
  openInSessionplan: 'In Sessionplan öffnen',
  linkNotOpened: 'Der Link konnte von hier aus nicht geöffnet werden.',
  createFailed: 'Aus diesem Plan konnte kein Link erstellt werden.',
  decodeFailed: 'Dieser Link konnte nicht geöffnet werden.',
  cancelled: 'Die Anfrage wurde abgebrochen, bevor der Plan ankam.',
  notShown: 'Dieser Plan kann hier nicht angezeigt werden.',
  summary: (blocks, minutes) => `${blocks} ${blocks === 1 ? 'Block' : 'Blöcke'}, ${minutes} Min.`,
};

export const VIEW_STRINGS: Readonly<Record<Language, ViewStrings>> = { de, en };
