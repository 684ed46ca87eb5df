// The shape of the viewer's string table: one object per language (en.ts, de.ts), type-checked against this interface.
import type { SessionErrorCode } from '../../session/errors.js';

/** The languages the page speaks. */
export type Language = 'de' | 'en';

/**
 * Every word the viewer, its exports and the views that reuse its renderers show. Durations and dates are formatted
 * by Intl (i18n/locale.ts); functions here receive them already formatted.
 */
export interface Strings {
  /** BCP 47 tag for `<html lang>` and Intl. */
  locale: string;

  // Page
  pageTitle: string;
  planPageTitle: (title: string) => string;
  problemPageTitle: string;
  loading: string;
  footer: string;

  // Toolbar (accessible names are the visible labels)
  toolbarLabel: string;
  /** Edit mode (src/planner/, loaded on demand): the entry from a plan and from the empty page. */
  editPlan: string;
  newPlan: string;
  editorLoadFailed: string;
  copyLink: string;
  linkCopied: string;
  copyFailed: string;
  print: string;
  downloadCalendar: string;
  calendarNeedsDate: string;
  calendarNeedsStartTime: string;
  downloadAgenda: string;
  /** The plan as a CSV table (src/viewer/export/table-csv.ts). */
  downloadCsv: string;
  /** A breakout item's lane in the table when every lane runs it. */
  allLanes: string;
  downloadStarted: (fileName: string) => string;
  downloadFailed: string;
  showNotes: string;
  /** The notes toggle while notes are shown: its label says what pressing it does now. */
  hideNotes: string;
  /** The toolbar's menu button holding live, print, downloads and the notes toggle. */
  moreActions: string;
  /** Opens the live view (src/live/): the plan run with the clock. */
  live: string;
  liveLoadFailed: string;
  /** "Start from a template" on the empty page (src/viewer/template-list.ts). */
  templatesTitle: string;
  /** After a template's summary: its length, formatted. */
  templateLength: (duration: string) => string;
  /** The link to the methods' licence, after the sentence naming their source. */
  templatesLicense: string;
  templatesLoadFailed: string;
  /** Makes the participants' link (handout.ts) and opens it in a new tab with their print layout. */
  handout: string;
  /** Said when the handout opened; `hidden` facilitator-only blocks stand under a neutral title there. */
  handoutOpened: (hidden: number) => string;
  handoutFailed: (reason: string) => string;
  /** Above a handout's plan, on screen and on paper. */
  handoutBadge: string;
  /** The title a facilitator-only block has in the handout (its time and length stay). */
  handoutPlaceholder: string;

  // Plan header
  noDate: string;
  noStartTime: string;
  /** The sum of the top-level durations ("Duration 6 hrs 35 mins"): the figure create's summary reports. */
  plannedLength: (duration: string) => string;
  /** Start to end on the clock ("09:00–15:50"), and whether gaps lengthen or overlaps shorten it against the planned length. */
  timeSpan: (range: string, relation: 'exact' | 'gaps' | 'overlaps') => string;
  noItems: string;
  warningsTitle: (count: number) => string;
  categoriesLabel: string;

  // Timeline
  gap: (duration: string) => string;
  overlap: (duration: string) => string;
  fixedTime: string;
  lane: (number: number) => string;
  sameInAllLanes: (lanes: number) => string;
  outsideLanes: string;
  laneEmpty: string;
  parallelLanes: (lanes: number, same: boolean) => string;
  overrun: (duration: string) => string;
  unknownPerson: (id: string) => string;
  /** After the most chips a list shows: how many more people it names (count formatted). */
  morePeople: (count: string) => string;
  /** Items of a link past what a plan may hold, which the page leaves out (counts formatted). */
  itemsLeftOut: (total: string, shown: string) => string;
  notesLabel: string;
  materialLabel: string;
  peopleLabel: string;

  // Empty and problem pages
  noPlanTitle: string;
  noPlanMessage: string;
  cannotOpenTitle: string;
  /** What a link that holds no readable plan was found to be (session/link.ts LinkRefusalKind). */
  noSnapshot: string;
  dynamicLink: string;
  legacyLink: string;
  newerFormat: string;
  tooLarge: string;
  brokenLink: string;
  loadFailedTitle: string;
  loadFailedMessage: string;
  loadFailedHint: string;
  detailsSummary: string;
  errorHints: Record<SessionErrorCode, string>;
  pasteLabel: string;
  pasteOpen: string;
  pasteEmpty: string;

  // Exports
  agendaTime: string;
  agendaTitle: string;
  agendaDuration: string;
  agendaPeople: string;
  agendaMaterial: string;
  agendaNotes: string;
  agendaGroup: (title: string) => string;
  agendaBreakout: (title: string) => string;
  calendarInLane: (container: string, lane: string) => string;
  calendarInGroup: (group: string) => string;
  agendaFileSuffix: string;
}
