// The page's toolbar (screen only): the planner's "Edit plan", copy link, and a menu with the live view, print, the
// participants' handout, the calendar, agenda and table downloads and the notes toggle, so it stays one row on a phone. It calls the actions it is given and says what happened.
import { el } from '../plan-view/dom.js';
import { createMenuButton } from '../plan-view/menu-button.js';
import type { Strings } from '../plan-view/i18n/strings.js';
import { planHasNotes } from './notes-preference.js';
import type { Plan } from '../plan-view/plan.js';
import { calendarBlocker } from '../plan-view/workshop-day.js';

/** What the buttons do; main.ts wires them to the page. Downloads resolve with the saved file's name. */
export interface ToolbarActions {
  copyLink(): Promise<boolean>;
  print(): void;
  downloadCalendar(): Promise<string>;
  downloadAgenda(): Promise<string>;
  downloadTable(): Promise<string>;
  notesChanged(shown: boolean): void;
  live(): void;
  /** Opens the participants' handout; resolves with the sentence that says what happened. */
  handout(): Promise<string>;
}

export interface Toolbar {
  /** The toolbar group and its status lines; goes into the page header. */
  readonly element: HTMLElement;
  /**
   * The first place in the toolbar, empty here: the planner (src/planner/, loaded on demand) puts its "Edit plan"
   * button in it, so the button sits with the others and inherits their look and keyboard order.
   */
  readonly editSlot: HTMLElement;
  /** Shows the toolbar for a plan: the calendar item says why when the plan cannot go into a calendar. */
  showFor(plan: Plan, notesShown: boolean): void;
  /** Hides the toolbar (problem and empty pages). */
  hide(): void;
  /** Puts a sentence in the visible status line (read out politely by screen readers). */
  announce(text: string): void;
  /** Focus on the menu button, where the live view came from when it closes. */
  focusMenu(): void;
}

/** Builds the toolbar in the page's language. */
export function createToolbar(strings: Strings, actions: ToolbarActions): Toolbar {
  const editSlot = el('span', 'toolbar-slot');
  editSlot.dataset['slot'] = 'edit';
  const copy = el('button', 'button', strings.copyLink);
  copy.type = 'button';
  copy.dataset['action'] = 'copy-link';
  const more = createMenuButton(strings.moreActions);
  const group = el('div', 'toolbar', editSlot, copy, more.element);
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', strings.toolbarLabel);

  // The reason a menu item cannot work, for aria-describedby: never shown itself, as the menu is closed most of the time.
  const why = el('p', 'toolbar-note');
  why.id = 'calendar-unavailable';
  why.hidden = true;
  const status = el('p', 'toolbar-status');
  status.setAttribute('role', 'status');
  const element = el('div', 'toolbar-area', group, why, status);
  element.hidden = true;

  const announce = (text: string): void => {
    // Emptied first, so the same sentence twice in a row is announced again.
    status.textContent = '';
    requestAnimationFrame(() => { status.textContent = text; });
  };
  const download = (run: () => Promise<string>) => (): void => {
    run().then((name) => announce(strings.downloadStarted(name)), () => announce(strings.downloadFailed));
  };

  copy.addEventListener('click', () => {
    void actions.copyLink().then((copied) => announce(copied ? strings.linkCopied : strings.copyFailed));
  });
  more.add(strings.live, 'live', () => actions.live());
  more.add(strings.print, 'print', () => actions.print());
  more.add(strings.handout, 'handout', () => void actions.handout().then(announce));
  const downloadCalendar = download(() => actions.downloadCalendar());
  const calendar = more.add(strings.downloadCalendar, 'calendar', () => {
    if (calendar.getAttribute('aria-disabled') === 'true') announce(why.textContent ?? '');
    else downloadCalendar();
  });
  more.add(strings.downloadAgenda, 'agenda', download(() => actions.downloadAgenda()));
  more.add(strings.downloadCsv, 'table', download(() => actions.downloadTable()));
  // The toggle's label says what it does now ("Show notes" or "Hide notes"), so it tells its state without a pressed look.
  let notesShown = false;
  const showNotes = (shown: boolean): void => {
    notesShown = shown;
    notes.textContent = shown ? strings.hideNotes : strings.showNotes;
  };
  const notes = more.add(strings.showNotes, 'notes', () => {
    showNotes(!notesShown);
    actions.notesChanged(notesShown);
  });

  return {
    element,
    editSlot,
    showFor(plan, shown) {
      // The item stays focusable when it cannot work (aria-disabled, not disabled): it describes why to a screen reader,
      // shows why on hover, and says why in the status line when chosen.
      const blocker = calendarBlocker(plan);
      why.textContent = blocker === 'date' ? strings.calendarNeedsDate : blocker === 'startTime' ? strings.calendarNeedsStartTime : '';
      if (blocker === null) {
        calendar.removeAttribute('aria-disabled');
        calendar.removeAttribute('aria-describedby');
        calendar.removeAttribute('title');
      } else {
        calendar.setAttribute('aria-disabled', 'true');
        calendar.setAttribute('aria-describedby', why.id);
        calendar.title = why.textContent;
      }
      notes.hidden = !planHasNotes(plan.items);
      showNotes(shown);
      status.textContent = '';
      element.hidden = false;
    },
    hide() {
      element.hidden = true;
    },
    announce,
    focusMenu: () => more.button.focus(),
  };
}
