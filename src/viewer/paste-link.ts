// The "Paste a Sessionplan link" field of the empty and problem pages: Enter opens the plan, a bad link is marked here.
import { el } from '../plan-view/dom.js';
import type { Strings } from '../plan-view/i18n/strings.js';

/** Opens what was pasted; resolves with null when the plan opens, or the plain sentence that says why it cannot. */
export type OpenPasted = (input: string) => Promise<string | null>;

let formCount = 0;

/**
 * A labelled field with an Open button. An error is shown below the field (`aria-invalid`, `aria-describedby`) and the
 * address stays as it was: a link that cannot be opened never reaches the address bar.
 */
export function renderPasteForm(strings: Strings, open: OpenPasted): HTMLFormElement {
  formCount += 1;
  const id = `paste-link-${formCount}`;
  const input = el('input', 'paste-input');
  input.id = id;
  input.type = 'text';
  input.name = 'link';
  input.autocomplete = 'off';
  input.spellcheck = false;
  input.setAttribute('inputmode', 'url');
  input.setAttribute('enterkeyhint', 'go');
  const label = el('label', 'paste-label', strings.pasteLabel);
  label.htmlFor = id;
  const error = el('p', 'paste-error');
  error.id = `${id}-error`;
  error.hidden = true;
  const button = el('button', 'button paste-open', strings.pasteOpen);
  button.type = 'submit';
  const form = el('form', 'paste', label, el('div', 'paste-row', input, button), error);
  form.noValidate = true;

  const showError = (message: string | null): void => {
    error.textContent = message ?? '';
    error.hidden = message === null;
    if (message === null) {
      input.removeAttribute('aria-invalid');
      input.removeAttribute('aria-describedby');
    } else {
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', error.id);
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = input.value.trim();
    if (value === '') {
      showError(strings.pasteEmpty);
      input.focus();
      return;
    }
    void open(value).then((problem) => {
      showError(problem);
      if (problem !== null) input.focus();
    });
  });
  return form;
}
