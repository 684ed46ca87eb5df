// Drag and drop of items with SortableJS (mouse, pen and touch): the nesting rule decides where a drop may land, the planner moves.
import Sortable from 'sortablejs';
import { canHold, type ItemKind } from '../tree.js';
import type { EditorContext } from './context.js';

function pathOf(text: string | undefined): number[] | null {
  return text === undefined || text === '' ? null : text.split('.').map(Number);
}

function kindOf(element: HTMLElement): ItemKind | null {
  const kind = element.dataset['kind'];
  return kind === 'block' || kind === 'group' || kind === 'breakout' ? kind : null;
}

/**
 * Makes one list sortable, in one group with every other list of the editor. SortableJS moves DOM nodes while
 * dragging; on drop the node is put back where Preact rendered it and the move goes to the planner, whose new state
 * renders the list again (so the DOM never disagrees with the draft).
 */
export function bindSortable(list: HTMLOListElement, editor: EditorContext): () => void {
  const sortable = Sortable.create(list, {
    group: {
      name: 'sessionplan-items',
      pull: true,
      // A group holds blocks and breakouts, a breakout only blocks, and nothing goes into itself (docs/import-guide.md, "Nesting").
      put: (to, _from, dragged) => {
        const kind = kindOf(dragged);
        const target = to.el.dataset['kind'];
        if (kind === null || dragged.contains(to.el)) return false;
        return canHold(target === 'top' ? null : (target as ItemKind), kind);
      },
    },
    handle: '.drag-handle',
    draggable: '.edit-item',
    animation: 120,
    fallbackOnBody: true,
    swapThreshold: 0.65,
    onEnd(event) {
      const { item, from, to, oldIndex, newIndex } = event;
      // Back where it was before Preact renders the move from the draft.
      item.remove();
      from.insertBefore(item, from.children[oldIndex ?? 0] ?? null);
      const at = pathOf(item.dataset['path']);
      if (at === null || newIndex === undefined || (from === to && oldIndex === newIndex)) return;
      const result = editor.planner.apply({ kind: 'move', at, to: pathOf(to.dataset['container']), index: newIndex });
      const id = item.dataset['itemId'];
      if (result.at && id !== undefined) editor.selected.value = id;
    },
  });
  return () => sortable.destroy();
}
