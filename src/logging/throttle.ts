// Once per kind per interval: for failures that repeat as fast as they happen (accept errors, a store reconnecting).

/** A function that says whether `kind` may be logged now: true at most once per `intervalMs` for each kind. */
export function oncePerInterval(intervalMs: number, now: () => number = () => performance.now()): (kind: string) => boolean {
  const last = new Map<string, number>();
  return (kind) => {
    const at = now();
    if (at - (last.get(kind) ?? Number.NEGATIVE_INFINITY) < intervalMs) return false;
    last.set(kind, at);
    return true;
  };
}
