// The live view's entry (loaded on demand): runs the plan on the facilitator's screen with the device clock, takes
// +5 min, Done, Back and Reset from buttons and keys (keys.ts), keeps the run in local storage (state.ts), and keeps
// the screen awake (wake-lock.ts); the projector window (projector.ts) follows it.
import { escapeHtml } from '../plan-view/html.js';
import type { Language } from '../plan-view/i18n/locale.js';
import type { Plan, PlanPerson } from '../plan-view/plan.js';
import { formatMinutes } from '../plan-view/schedule.js';
import { de } from './i18n/de.js';
import { en } from './i18n/en.js';
import type { LiveStrings } from './i18n/strings.js';
import { minutesOf, startNow, type LiveRun } from './run.js';
import { listenToLiveKeys } from './keys.js';
import { liveMoment, liveSchedule, type LiveAction, type LiveMoment, type LiveSchedule } from './schedule.js';
import { EMPTY_STATE, MAX_ACTIONS, readState, storageKey, writeState, type LiveState } from './state.js';
import { timelineOf } from './timeline.js';
import { keepScreenAwake } from './wake-lock.js';
import { openRunChannel, readChime, writeChime } from './channel.js';
import type { ProjectorOptions } from './projector.js';
import { mainHtml, minutesLeft, structureKey, titleOf, updateTexts, type LiveScreen, type LiveWords } from './view.js';

/** What the projector has (the plan, its link's fragment, the page's words and storage), and a way back to the plan. */
export interface LiveOptions extends ProjectorOptions {
  onClose(): void;
}

export interface LiveView {
  unmount(): void;
}

const TABLES: Record<Language, LiveStrings> = { de, en };
/** Minutes added by "+5 min". */
const EXTEND_MINUTES = 5;
/** "Next: … in 2 minutes" is said once per item, this many minutes before it ends. */
const ANNOUNCE_MINUTES = 2;

/** Mounts the live view into the container (replacing what is there) and starts its clock. */
export function mountLive(options: LiveOptions): LiveView {
  performance.mark('sessionplan:live-start');
  const { container, plan, locale } = options;
  const live = TABLES[options.language];
  const words: LiveWords = { live, locale };
  const key = storageKey(options.fragment);
  const people = new Map<string, PlanPerson>(plan.persons.map((person) => [person.id, person]));
  let state: LiveState = readState(options.storage, key);
  let chimeOn = readChime(options.storage);
  // The projector window follows this one (projector.ts): every change goes out at once.
  const channel = openRunChannel(key, () => {});
  const broadcast = (): void => channel.post({ state, chime: chimeOn });
  let version = 0;
  let run: LiveRun | null = null;
  let schedule: LiveSchedule = liveSchedule(plan.items, 0, []);
  let relative = false;
  let renderedKey = '';
  let clockText = '';
  const announced = new Set<string>();

  container.innerHTML = frameHtml(plan, live);
  const root = container.querySelector<HTMLElement>('.live')!;
  const main = root.querySelector<HTMLElement>('.live-main')!;
  const clock = root.querySelector<HTMLElement>('.live-clock')!;
  const end = root.querySelector<HTMLElement>('.live-end')!;
  const behind = root.querySelector<HTMLElement>('.live-behind')!;
  const status = root.querySelector<HTMLElement>('.live-status')!;
  const announcer = root.querySelector<HTMLElement>('.live-announce')!;
  const button = (name: string) => root.querySelector<HTMLButtonElement>(`[data-live="${name}"]`)!;
  const [extendButton, doneButton, backButton, chimeButton] = [button('extend'), button('done'), button('back'), button('chime')];
  chimeButton.setAttribute('aria-pressed', String(chimeOn));
  document.documentElement.dataset['live'] = 'on';

  /** The run and its schedule after a change of state: the actions replayed from the start. */
  const reschedule = (): void => {
    ({ run, schedule, relative } = timelineOf(plan, state, new Date()));
    version += 1;
  };

  const momentAt = (now: number): LiveMoment | null => (run === null ? null : liveMoment(schedule, now));

  /** Brings the screen to the current second: rebuilt when what runs changed, otherwise only its counting texts. */
  const tick = (): void => {
    const date = new Date();
    const now = run === null ? 0 : minutesOf(run, date);
    const moment = momentAt(now);
    const screen: LiveScreen = { schedule, moment, relative, now, people };
    const structure = structureKey(screen, version);
    if (structure !== renderedKey) {
      renderedKey = structure;
      main.innerHTML = mainHtml(screen, words);
      end.textContent = run === null ? '' : live.endOfDay(formatMinutes(schedule.end, false));
      behind.textContent = moment === null ? '' : behindText(moment.behind, live);
      behind.classList.toggle('live-behind--late', moment !== null && Math.round(moment.behind) > 0);
      extendButton.disabled = moment?.current == null;
      doneButton.disabled = moment?.current == null;
      backButton.disabled = state.actions.length === 0;
      scrollToNow();
    }
    updateTexts(main, moment, now, words);
    const time = formatMinutes(date.getHours() * 60 + date.getMinutes(), false);
    if (time !== clockText) clock.textContent = clockText = time;
    announce(moment, now);
  };

  /** The rest of the day scrolls (on a wide screen) so that the now-line is near its top. */
  const scrollToNow = (): void => {
    const rest = main.querySelector<HTMLElement>('.live-rest');
    const line = main.querySelector<HTMLElement>('.live-now-line');
    if (rest !== null && line !== null && rest.scrollHeight > rest.clientHeight) rest.scrollTop = Math.max(0, line.offsetTop - 120);
  };

  const announce = (moment: LiveMoment | null, now: number): void => {
    const current = moment?.current;
    const next = moment?.next;
    if (current == null || next == null) return;
    const left = minutesLeft(current.end, now);
    const id = `${current.item.id}@${current.start}`;
    if (left > ANNOUNCE_MINUTES || announced.has(id)) return;
    announced.add(id);
    announcer.textContent = live.nextSoon(titleOf(next.item, words), Math.max(1, left));
  };

  const save = (next: LiveState, said: string): void => {
    state = next;
    writeState(options.storage, key, state);
    broadcast();
    reschedule();
    tick();
    status.textContent = said;
  };

  const act = (kind: 'extend' | 'done'): void => {
    if (run === null || state.actions.length >= MAX_ACTIONS) return;
    const now = minutesOf(run, new Date());
    const current = liveMoment(schedule, now).current;
    if (current === null) return;
    const action: LiveAction = kind === 'extend'
      ? { kind, id: current.item.id, minutes: EXTEND_MINUTES }
      : { kind, id: current.item.id, at: Math.max(current.start, Math.round(now)) };
    const title = titleOf(current.item, words);
    save({ ...state, actions: [...state.actions, action] }, '');
    const after = schedule.entries.find((entry) => entry.item === current.item);
    status.textContent = kind === 'done' ? live.ended(title) : live.extended(title, formatMinutes(after?.end ?? current.end, false));
  };

  const back = (): void => {
    if (state.actions.length > 0) save({ ...state, actions: state.actions.slice(0, -1) }, live.undone);
  };

  root.addEventListener('click', (event) => {
    const target = (event.target as Element).closest<HTMLButtonElement>('button[data-live]');
    if (target === null || target.disabled) return;
    const action = target.dataset['live'];
    if (action === 'extend' || action === 'done') act(action);
    else if (action === 'back') back();
    else if (action === 'reset') save(EMPTY_STATE, live.resetDone);
    else if (action === 'projector') openProjector();
    else if (action === 'chime') {
      chimeOn = !chimeOn;
      writeChime(options.storage, chimeOn);
      chimeButton.setAttribute('aria-pressed', String(chimeOn));
      status.textContent = chimeOn ? live.chimeOn : live.chimeOff;
      broadcast();
    }
    else if (action === 'start') {
      save({ startedAt: startNow(new Date()), actions: [] }, '');
      doneButton.focus();
    } else if (action === 'close') options.onClose();
  });

  /** The projector: this page again with ?view=projector and the same link, in a window of its own for the room. */
  const openProjector = (): void => {
    const params = new URLSearchParams(location.search);
    params.set('view', 'projector');
    const opened = window.open(`${location.pathname}?${params.toString()}${location.hash}`, 'sessionplan-projector', 'popup,width=1280,height=720');
    status.textContent = opened === null ? live.projectorBlocked : '';
  };

  const stopKeys = listenToLiveKeys({ done: () => act('done'), extend: () => act('extend'), back, close: () => options.onClose() });
  const letScreenSleep = keepScreenAwake();

  reschedule();
  tick();
  const timer = setInterval(tick, 1000);
  void root.offsetHeight;
  performance.mark('sessionplan:live-ready');
  performance.measure('sessionplan:live', 'sessionplan:live-start', 'sessionplan:live-ready');
  root.querySelector<HTMLElement>(run === null ? '[data-live="start"]' : '.live-plan-title')?.focus();

  return {
    unmount() {
      clearInterval(timer);
      channel.close();
      stopKeys();
      letScreenSleep();
      delete document.documentElement.dataset['live'];
      container.replaceChildren();
    },
  };
}

function behindText(minutes: number, live: LiveStrings): string {
  const whole = Math.round(minutes);
  return whole > 0 ? live.behind(whole) : whole < 0 ? live.ahead(-whole) : live.onTime;
}

/** The parts that stay while the plan runs: title, clock, day's end, controls; the main part is filled by tick(). */
function frameHtml(plan: Plan, live: LiveStrings): string {
  // The visible word is the button's name; the title says more (its description, and a tooltip).
  const control = (name: string, label: string, accessible: string | null, extra = '') =>
    `<button type="button" class="live-button${extra}" data-live="${name}"${accessible === null ? '' : ` title="${escapeHtml(accessible)}"`}>${escapeHtml(label)}</button>`;
  return `<div class="live" role="region" aria-label="${escapeHtml(live.label)}">`
    + '<div class="live-bar">'
    + `<h1 class="live-plan-title" tabindex="-1">${escapeHtml(plan.workshop.title)}</h1>`
    + '<p class="live-day"><span class="live-clock"></span> <span class="live-end"></span> <span class="live-behind"></span></p>'
    + `<div class="live-controls" role="group" aria-label="${escapeHtml(live.label)}">`
    + control('back', live.back, live.backName)
    + control('extend', live.extend, live.extendName)
    + control('done', live.done, live.doneName, ' live-button--primary')
    + control('reset', live.reset, null)
    + control('projector', live.openProjector, live.openProjectorName)
    + control('chime', live.chime, null)
    + control('close', live.close, null)
    + '</div></div>'
    + '<div class="live-main"></div>'
    + `<p class="live-keys">${escapeHtml(live.keys)}</p>`
    + '<p class="live-status" role="status"></p>'
    + '<div class="live-announce offscreen" aria-live="polite"></div>'
    + '</div>';
}

export { mountProjector } from './projector.js';
