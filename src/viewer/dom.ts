// Tiny DOM builder: elements with text only (plan text is untrusted, so nothing is ever parsed as HTML).

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

/** Sets a data-* attribute (used for styling hooks and for tests to find things by meaning). */
export function withData<T extends HTMLElement>(element: T, data: Record<string, string>): T {
  // setAttribute with the dashed name: cheaper than the dataset proxy when a large plan sets thousands of them.
  for (const [key, value] of Object.entries(data)) element.setAttribute(`data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, value);
  return element;
}
