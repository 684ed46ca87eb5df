// Keeps the screen on while the plan runs (Wake Lock API, where the browser has it).

/** Asks for the lock now and whenever the tab is shown again (a hidden tab loses it); the returned function lets go. */
export function keepScreenAwake(): () => void {
  let lock: WakeLockSentinel | null = null;
  let released = false;
  const ask = (): void => {
    if (released || document.visibilityState !== 'visible' || !('wakeLock' in navigator)) return;
    navigator.wakeLock.request('screen').then((sentinel) => {
      if (released) void sentinel.release().catch(() => {});
      else lock = sentinel;
    }, () => {});
  };
  document.addEventListener('visibilitychange', ask);
  ask();
  return () => {
    released = true;
    document.removeEventListener('visibilitychange', ask);
    void lock?.release().catch(() => {});
  };
}
