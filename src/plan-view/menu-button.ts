// A menu button (the WAI-ARIA menu button pattern): one button opens a short list of actions that the arrow keys walk.
// The viewer's toolbar and the planner's both keep their secondary actions in one.
import { el } from './dom.js';

export interface MenuButton {
  /** The button and its menu, to place in a toolbar. */
  readonly element: HTMLElement;
  readonly button: HTMLButtonElement;
  /** Adds an action at the end of the menu; choosing it closes the menu first, so focus is back on the button. */
  add(label: string, action: string, run: () => void): HTMLButtonElement;
  /** Stops listening to the page (a menu of a view that goes away, such as edit mode's). */
  dispose(): void;
}

let menus = 0;

/** Builds a closed menu button with the given visible label (also its accessible name). */
export function createMenuButton(label: string): MenuButton {
  menus += 1;
  const button = el('button', 'button menu-button', label);
  button.type = 'button';
  button.setAttribute('aria-haspopup', 'menu');
  button.setAttribute('aria-expanded', 'false');
  const menu = el('div', 'menu');
  menu.id = `menu-${menus}`;
  menu.setAttribute('role', 'menu');
  menu.setAttribute('aria-label', label);
  menu.hidden = true;
  button.setAttribute('aria-controls', menu.id);
  const element = el('div', 'menu-area', button, menu);

  /** The items a reader can choose now: hidden ones (a notes toggle without notes) are skipped by the arrow keys. */
  const items = (): HTMLButtonElement[] => [...menu.querySelectorAll<HTMLButtonElement>('[role="menuitem"]')].filter((item) => !item.hidden);
  const focusItem = (index: number): void => {
    const list = items();
    if (list.length === 0) return;
    list[(index + list.length) % list.length]!.focus();
  };
  const isOpen = (): boolean => !menu.hidden;
  const open = (first: 'first' | 'last'): void => {
    menu.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    focusItem(first === 'first' ? 0 : -1);
  };
  const close = (returnFocus: boolean): void => {
    if (!isOpen()) return;
    menu.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    if (returnFocus) button.focus();
  };

  button.addEventListener('click', () => (isOpen() ? close(true) : open('first')));
  button.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    open(event.key === 'ArrowDown' ? 'first' : 'last');
  });
  menu.addEventListener('keydown', (event) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: list.length - 1 };
    const target = moves[event.key];
    if (target !== undefined) {
      event.preventDefault();
      focusItem(target);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') {
      // Tab leaves the menu for the next control on the page, as it leaves any toolbar button.
      close(false);
    }
  });
  // A click or focus anywhere else closes the menu, as a native menu does.
  element.addEventListener('focusout', (event) => {
    if (!(event.relatedTarget instanceof Node) || !element.contains(event.relatedTarget)) close(false);
  });
  const outside = (event: PointerEvent): void => {
    if (isOpen() && !(event.target instanceof Node && element.contains(event.target))) close(false);
  };
  document.addEventListener('pointerdown', outside);

  return {
    element,
    button,
    add(itemLabel, action, run) {
      const item = el('button', 'menu-item', itemLabel);
      item.type = 'button';
      item.tabIndex = -1;
      item.dataset['action'] = action;
      item.setAttribute('role', 'menuitem');
      item.addEventListener('click', () => {
        close(true);
        run();
      });
      menu.append(item);
      return item;
    },
    dispose: () => document.removeEventListener('pointerdown', outside),
  };
}
