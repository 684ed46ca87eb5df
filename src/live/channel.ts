// Keeps the presenter's and the projector's windows of one run in step on one device: each change goes out on a
// BroadcastChannel at once, and local storage (state.ts) holds it for a window that opens later. Nothing leaves the device.
import type { LiveState } from './state.js';

/** What the presenter sends: the run, and whether the projector may chime. */
export interface RunMessage {
  readonly state: LiveState;
  readonly chime: boolean;
}

export interface RunChannel {
  post(message: RunMessage): void;
  close(): void;
}

/** The projector's chime setting, kept on the device beside the runs (a presenter's choice, not a plan's). */
export const CHIME_KEY = 'sessionplan:projector-chime';

/**
 * The channel of the run stored under `key`, or a silent stand-in where the browser has no BroadcastChannel (the
 * projector then follows local storage's `storage` events).
 */
export function openRunChannel(key: string, onMessage: (message: RunMessage) => void): RunChannel {
  if (typeof BroadcastChannel === 'undefined') return { post: () => {}, close: () => {} };
  const channel = new BroadcastChannel(key);
  channel.onmessage = (event: MessageEvent<RunMessage>) => onMessage(event.data);
  return { post: (message) => channel.postMessage(message), close: () => channel.close() };
}

export function readChime(storage: Storage | null): boolean {
  try {
    return storage?.getItem(CHIME_KEY) !== 'off';
  } catch {
    return true;
  }
}

export function writeChime(storage: Storage | null, on: boolean): void {
  try {
    storage?.setItem(CHIME_KEY, on ? 'on' : 'off');
  } catch {
    // Only this window keeps the choice.
  }
}
