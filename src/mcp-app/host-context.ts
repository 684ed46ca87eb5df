// What the view takes from the host context (ui/initialize, host-context-changed): theme, locale, style variables, tool.
import type { Language } from '../plan-view/i18n/strings.js';
import { languageOfTag } from '../plan-view/language.js';

/** The parts of the spec's HostContext the view reads; every field is optional and may change later. */
export interface HostContext {
  theme?: 'light' | 'dark';
  locale?: string;
  styles?: { variables?: Record<string, string | undefined> };
  toolInfo?: { tool?: { name?: unknown } };
}

/** German for a `de*` host locale (de, de-DE, de-AT, de-CH…), English otherwise: the viewer's own rule. */
export function languageOfContext(context: HostContext): Language {
  return languageOfTag(context.locale);
}

/** The spec's standard variables the view's styles read (styles.css), each with the view's own value as fallback. */
const HOST_VARIABLES = [
  '--color-background-primary',
  '--color-background-secondary',
  '--color-text-primary',
  '--color-text-secondary',
  '--color-border-primary',
  '--font-sans',
] as const;

/** Merges a context update into the current one (the spec sends partial updates). */
export function mergeContext(current: HostContext, update: Record<string, unknown>): HostContext {
  return { ...current, ...(update as HostContext) };
}

/**
 * Applies theme and host style variables to the document: `data-theme` and `color-scheme` for the theme, and the
 * standard variables the view uses (values the host sends are CSS values; anything else is ignored).
 */
export function applyContext(root: HTMLElement, context: HostContext): void {
  const theme = context.theme === 'dark' ? 'dark' : 'light';
  root.dataset['theme'] = theme;
  root.style.colorScheme = theme;
  const variables = context.styles?.variables ?? {};
  for (const name of HOST_VARIABLES) {
    const value = variables[name];
    if (typeof value === 'string' && value.trim() !== '') root.style.setProperty(name, value);
    else root.style.removeProperty(name);
  }
}
