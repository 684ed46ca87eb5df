// The page's toolbar (screen only): copy link, print, calendar and agenda downloads, the notes toggle, and the place where
// the planner's "Edit plan" button goes. It calls the actions it is given and says what happened in a status line.
import { el } from '../plan-view/dom.js';
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
  notesChanged(shown: boolean): void;
}

export interface Toolbar {
  /** The toolbar group and its status lines; goes into the page header. */
  readonly element: HTMLElement;
  /**
   * The first place in the toolbar, empty here: the planner (src/planner/, loaded on demand) puts its "Edit plan"
   * button in it, so the button sits with the others and inherits their look and keyboard order.
   */
  readonly editSlot: HTMLElement;
  /** Shows the toolbar for a plan: the calendar button says why when the plan cannot go into a calendar. */
  showFor(plan: Plan, notesShown: boolean): void;
  /** Hides the toolbar (problem and empty pages). */
  hide(): void;
  /** Puts a sentence in the visible status line (read out politely by screen readers). */
  announce(text: string): void;
}

function button(label: string, action: string): HTMLButtonElement {
  const control = el('button', 'button', label);
  control.type = 'button';
  control.dataset['action'] = action;
  return control;
}

/** Builds the toolbar in the page's language. */
export function createToolbar(strings: Strings, actions: ToolbarActions): Toolbar {
  const editSlot = el('span', 'toolbar-slot');
  editSlot.dataset['slot'] = 'edit';
  const copy = button(strings.copyLink, 'copy-link');
  const print = button(strings.print, 'print');
  const calendar = button(strings.downloadCalendar, 'calendar');
  const agenda = button(strings.downloadAgenda, 'agenda');
  const notes = button(strings.showNotes, 'notes');
  notes.setAttribute('aria-pressed', 'false');
  const group = el('div', 'toolbar', editSlot, copy, print, calendar, agenda, notes);
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', strings.toolbarLabel);

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
  print.addEventListener('click', () => actions.print());
  const downloadCalendar = download(() => actions.downloadCalendar());
  calendar.addEventListener('click', () => {
    if (calendar.getAttribute('aria-disabled') === 'true') announce(why.textContent ?? '');
    else downloadCalendar();
  });
  agenda.addEventListener('click', download(() => actions.downloadAgenda()));
  notes.addEventListener('click', () => {
    const shown = notes.getAttribute('aria-pressed') !== 'true';
    notes.setAttribute('aria-pressed', String(shown));
    actions.notesChanged(shown);
  });

  return {
    element,
    editSlot,
    showFor(plan, notesShown) {
      // The button stays focusable when it cannot work (aria-disabled, not disabled), so keyboard and screen reader
      // users reach it and hear why, as sighted users read the note under the toolbar.
      const blocker = calendarBlocker(plan);
      why.textContent = blocker === 'date' ? strings.calendarNeedsDate : blocker === 'startTime' ? strings.calendarNeedsStartTime : '';
      why.hidden = blocker === null;
      if (blocker === null) {
        calendar.removeAttribute('aria-disabled');
        calendar.removeAttribute('aria-describedby');
      } else {
        calendar.setAttribute('aria-disabled', 'true');
        calendar.setAttribute('aria-describedby', why.id);
      }
      notes.hidden = !planHasNotes(plan.items);
      notes.setAttribute('aria-pressed', String(notesShown));
      status.textContent = '';
      element.hidden = false;
    },
    hide() {
      element.hidden = true;
    },
    announce,
  };
}
