// The projector window (loaded with the live view): Now, Next and the minutes left in type a room reads from the back,
// each lane of a breakout side by side, a wrap-up colour in the last two minutes and a soft chime then. It only
// follows the presenter's window on this device (channel.ts, state.ts); it has no controls of its own.
import { escapeHtml, tag, textTag } from '../plan-view/html.js';
import type { Language, ViewerLocale } from '../plan-view/i18n/locale.js';
import type { Plan } from '../plan-view/plan.js';
import { formatMinutes } from '../plan-view/schedule.js';
import { openRunChannel, readChime } from './channel.js';
import { de } from './i18n/de.js';
import { en } from './i18n/en.js';
import type { LiveStrings } from './i18n/strings.js';
import { minutesOf } from './run.js';
import { laneMoments, liveMoment, type LiveMoment } from './schedule.js';
import { readState, storageKey, type LiveState } from './state.js';
import { timelineOf, type Timeline } from './timeline.js';
import { keepScreenAwake } from './wake-lock.js';
import { minutesLeft, titleOf, type LiveWords } from './view.js';

export interface ProjectorOptions {
  readonly container: HTMLElement;
  readonly plan: Plan;
  /** The link's fragment: the run is stored under a key derived from it. */
  readonly fragment: string;
  readonly language: Language;
  /** The page's locale: lanes, overlaps and durations in the view's words. */
  readonly locale: ViewerLocale;
  readonly storage: Storage | null;
}

const TABLES: Record<Language, LiveStrings> = { de, en };
/** The last minutes of an item, shown in the wrap-up colour (and chimed once as they begin). */
export const WRAP_UP_MINUTES = 2;

/** Mounts the projector into the container and follows the run until unmounted. */
export function mountProjector(options: ProjectorOptions): { unmount(): void } {
  const { container, plan } = options;
  const live = TABLES[options.language];
  const words: LiveWords = { live, locale: options.locale };
  const key = storageKey(options.fragment);
  let state: LiveState = readState(options.storage, key);
  let chimeOn = readChime(options.storage);
  let timeline: Timeline = timelineOf(plan, state, new Date());
  let rendered = '';
  const chimed = new Set<string>();
  const audio = new Chime();

  document.documentElement.dataset['live'] = 'projector';
  document.title = `${live.projectorLabel}: ${plan.workshop.title}`;
  container.innerHTML = `<div class="projector" role="region" aria-label="${escapeHtml(live.projectorLabel)}"><p class="projector-clock"></p><div class="projector-main"></div></div>`;
  const root = container.querySelector<HTMLElement>('.projector')!;
  const clock = root.querySelector<HTMLElement>('.projector-clock')!;
  const main = root.querySelector<HTMLElement>('.projector-main')!;

  const render = (): void => {
    const date = new Date();
    const now = timeline.run === null ? 0 : minutesOf(timeline.run, date);
    const moment = timeline.run === null ? null : liveMoment(timeline.schedule, now);
    const html = projectorHtml(moment, now, words);
    if (html !== rendered) {
      main.innerHTML = rendered = html;
      root.dataset['version'] = String(Number(root.dataset['version'] ?? '0') + 1);
    }
    const current = moment?.current ?? null;
    const left = current === null ? Infinity : minutesLeft(current.end, now);
    const wrapUp = left <= WRAP_UP_MINUTES && left > 0;
    root.classList.toggle('projector--wrap-up', wrapUp);
    if (wrapUp && current !== null) {
      const id = `${current.item.id}@${current.start}@${current.end}`;
      if (!chimed.has(id)) {
        chimed.add(id);
        if (chimeOn) {
          audio.play();
          root.dataset['chimes'] = String(Number(root.dataset['chimes'] ?? '0') + 1);
        }
      }
    }
    const time = formatMinutes(date.getHours() * 60 + date.getMinutes(), false);
    if (clock.textContent !== time) clock.textContent = time;
  };

  const follow = (next: LiveState): void => {
    state = next;
    timeline = timelineOf(plan, state, new Date());
    render();
  };
  // The presenter's changes, the moment they happen; storage events cover a browser without BroadcastChannel.
  const channel = openRunChannel(key, (message) => {
    chimeOn = message.chime;
    follow(message.state);
  });
  const onStorage = (event: StorageEvent): void => {
    if (event.key === key) follow(readState(options.storage, key));
  };
  window.addEventListener('storage', onStorage);
  // Browsers start sound only after a gesture in the window: the first click or key there allows the chime.
  const unlock = (): void => audio.unlock();
  window.addEventListener('pointerdown', unlock);
  window.addEventListener('keydown', unlock);
  const letScreenSleep = keepScreenAwake();

  render();
  const timer = setInterval(render, 1000);
  return {
    unmount() {
      clearInterval(timer);
      channel.close();
      window.removeEventListener('storage', onStorage);
      window.removeEventListener('pointerdown', unlock);
      window.removeEventListener('keydown', unlock);
      letScreenSleep();
      delete document.documentElement.dataset['live'];
      container.replaceChildren();
    },
  };
}

/** The projector's main part at a minute: what runs (its lanes), how long it has left, what comes next. */
function projectorHtml(moment: LiveMoment | null, now: number, words: LiveWords): string {
  const { live } = words;
  if (moment === null) return textTag('p', 'projector-waiting', live.projectorWaiting);
  const { current, next } = moment;
  let body: string;
  if (current === null) {
    body = next === null ? textTag('p', 'projector-title', live.over) : textTag('p', 'projector-waiting', live.notStarted(formatMinutes(next.start, false), minutesLeft(next.start, now)));
  } else {
    body = (current.group === null ? '' : textTag('p', 'projector-group', titleOf(current.group, words)))
      + textTag('p', 'projector-title', titleOf(current.item, words))
      + textTag('p', 'projector-left', live.minutesLeft(minutesLeft(current.end, now)));
    if (current.item.type === 'breakout') {
      let lanes = '';
      laneMoments(current, now).forEach((lane, index) => {
        const end = lane.current === null ? 0 : Math.min(lane.current.end, current.end);
        lanes += tag('li', 'projector-lane', textTag('h2', 'projector-lane-name', words.locale.strings.lane(index + 1))
          + (lane.current === null
            ? textTag('p', 'projector-lane-idle', live.laneIdle)
            : textTag('p', 'projector-lane-title', titleOf(lane.current.item, words)) + textTag('p', 'projector-lane-left', live.minutesLeft(minutesLeft(end, now)))));
      });
      body += tag('ul', 'projector-lanes', lanes);
    }
  }
  const after = next === null ? '' : tag('section', 'projector-next', textTag('h2', 'projector-heading', live.next)
    + textTag('p', 'projector-next-title', `${titleOf(next.item, words)} · ${formatMinutes(next.start, false)}`));
  return tag('section', 'projector-now', textTag('h2', 'projector-heading', live.now) + body) + after;
}

/** A soft two-note chime (Web Audio), quiet and short enough not to interrupt a speaker. */
class Chime {
  #context: AudioContext | null = null;

  unlock(): void {
    this.#ensure()?.resume().catch(() => {});
  }

  play(): void {
    const context = this.#ensure();
    if (context === null) return;
    const start = context.currentTime + 0.01;
    for (const [offset, frequency] of [[0, 659.25], [0.35, 880]] as const) {
      const tone = context.createOscillator();
      const gain = context.createGain();
      tone.type = 'sine';
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.12, start + offset + 0.04);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 1.2);
      tone.connect(gain).connect(context.destination);
      tone.start(start + offset);
      tone.stop(start + offset + 1.3);
    }
  }

  #ensure(): AudioContext | null {
    if (this.#context === null && typeof AudioContext !== 'undefined') this.#context = new AudioContext();
    return this.#context;
  }
}
