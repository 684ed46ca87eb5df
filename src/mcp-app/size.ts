// Reports the view's size to the host (ui/notifications/size-changed) whenever its content changes size.

/**
 * The content's height (the document at `max-content`, whatever height the frame has now) and the frame's width, once
 * per animation frame at most and only when either changed. The host sizes the frame from it.
 */
export function reportSize(send: (size: { width: number; height: number }) => void): void {
  const root = document.documentElement;
  let scheduled = false;
  let lastWidth = -1;
  let lastHeight = -1;
  const measure = (): void => {
    scheduled = false;
    const previous = root.style.height;
    root.style.height = 'max-content';
    const height = Math.ceil(root.getBoundingClientRect().height);
    root.style.height = previous;
    const width = Math.ceil(window.innerWidth);
    if (width === lastWidth && height === lastHeight) return;
    lastWidth = width;
    lastHeight = height;
    send({ width, height });
  };
  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(measure);
  };
  const observer = new ResizeObserver(schedule);
  observer.observe(root);
  observer.observe(document.body);
  schedule();
}
