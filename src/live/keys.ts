// The live view's keys for the room: Space is Done, + is +5 min, Backspace is Back, Escape closes.
export interface LiveKeyActions {
  done(): void;
  extend(): void;
  back(): void;
  close(): void;
}

/**
 * Listens on the document until the returned function is called. Space and Backspace do their live action unless a
 * control that takes them has focus (a button pressed with Space does what it says; a field keeps its Backspace).
 */
export function listenToLiveKeys(actions: LiveKeyActions): () => void {
  const onKey = (event: KeyboardEvent): void => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target instanceof Element ? event.target : null;
    const control = target?.closest('button, input, select, textarea, a[href]') ?? null;
    const field = control?.matches('input, select, textarea') === true;
    let action: (() => void) | null = null;
    if (event.key === 'Escape') action = actions.close;
    else if (event.key === ' ' && control === null) action = actions.done;
    else if (event.key === '+' && !field) action = actions.extend;
    else if (event.key === 'Backspace' && !field) action = actions.back;
    if (action === null) return;
    event.preventDefault();
    action();
  };
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}
