// Tiny DOM builder for the page chrome (loading and problem views): elements with text children only.

type Child = Node | string | null | undefined | false;

/** Creates `<tag class=…>` with the given children; strings become text nodes. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (className) element.className = className;
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}
