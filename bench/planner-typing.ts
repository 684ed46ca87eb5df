// Keystrokes in the planner's first item title, as bench:planner and the planner profile type them, and a table pasted
// into "Import table" (run in the page).

/**
 * Keystrokes in the first item's title, in the page (a string: code compiled by tsx cannot be sent as a function). An
 * edit is done once its link is in the address bar (the page marks `sessionplan:link-written`; a long link is written
 * when typing pauses, mount.tsx LONG_LINK_PAUSE_MS, and the pause is idle time, not CPU) and the frame after that has
 * been rendered, so whatever the edit changed on screen, whenever it changed it, is inside the measurement. The page is
 * told of the mark by a PerformanceObserver: a polling loop would add its own timer tasks to the main thread's CPU.
 */
export const TYPE_IN_FIRST_TITLE = (count: number): string => `(async () => {
  const input = document.querySelector('[data-control="title"]');
  input.focus();
  const linkWritten = () => new Promise((resolve) => {
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('sessionplan:link-written').length === 0) return;
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: 'mark' });
  });
  for (let i = 0; i < ${count}; i++) {
    const written = linkWritten();
    performance.mark('bench:edit-start');
    input.value = input.value.slice(0, 40) + String.fromCharCode(97 + (i % 26));
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await written;
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    void document.body.offsetHeight;
    performance.mark('bench:edit-done');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
})()`;

/**
 * Pastes `table` into the open "Import table" dialog, marked from `bench:paste` to `bench:preview-shown`: the preview's
 * table is in the DOM and laid out (a MutationObserver sees it in the task that renders it).
 */
export const PASTE_TABLE = (table: string): string => `(async () => {
  const area = document.querySelector('#table-paste');
  const dialog = area.closest('dialog');
  const shown = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (dialog.querySelector('.table-preview caption') === null) return;
      observer.disconnect();
      void dialog.offsetHeight;
      performance.mark('bench:preview-shown');
      resolve();
    });
    observer.observe(dialog, { childList: true, subtree: true });
  });
  performance.mark('bench:paste');
  area.value = ${JSON.stringify(table)};
  area.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
  await shown;
  return dialog.querySelector('.table-preview caption').textContent;
})()`;
