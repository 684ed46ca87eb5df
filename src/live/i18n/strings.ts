// The shape of the live view's string table: one object per language (en.ts, de.ts), loaded with the live view.
export interface LiveStrings {
  /** BCP 47 tag for Intl (clock times and durations). */
  locale: string;
  label: string;
  now: string;
  next: string;
  restOfDay: string;
  startNow: string;
  /** Why "Start now" is asked: the plan is not dated today with a start time. */
  startNowWhy: string;
  extend: string;
  extendName: string;
  done: string;
  doneName: string;
  back: string;
  backName: string;
  reset: string;
  close: string;
  keys: string;
  minutesLeft: (minutes: number) => string;
  progress: string;
  notStarted: (time: string, minutes: number) => string;
  over: string;
  startsAt: (time: string) => string;
  endOfDay: (time: string) => string;
  behind: (minutes: number) => string;
  ahead: (minutes: number) => string;
  onTime: string;
  laneIdle: string;
  nowLine: (time: string) => string;
  nextSoon: (title: string, minutes: number) => string;
  untitled: string;
  /** The status line after an action, so a screen reader hears what changed. */
  extended: (title: string, time: string) => string;
  ended: (title: string) => string;
  undone: string;
  resetDone: string;
  /** The projector window: opened from the presenter's controls, Now, Next and minutes left for the room. */
  openProjector: string;
  openProjectorName: string;
  projectorBlocked: string;
  projectorLabel: string;
  /** The soft chime the projector plays when an item enters its last two minutes, switched on the presenter's side. */
  chime: string;
  chimeOn: string;
  chimeOff: string;
  /** The projector before the run starts. */
  projectorWaiting: string;
}
