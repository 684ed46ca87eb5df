// A modal dialog of the editor (the browser's <dialog>): focus stays inside, Escape and "Close" close it, and focus goes
// back to the button that opened it.
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { useEditor } from './context.js';

export function ModalDialog(props: { readonly id: string; readonly title: string; readonly onClose: () => void; readonly children: ComponentChildren }) {
  const { strings } = useEditor();
  const dialog = useRef<HTMLDialogElement>(null);
  const onClose = useRef(props.onClose);
  onClose.current = props.onClose;
  useLayoutEffect(() => {
    const element = dialog.current;
    if (element === null) return undefined;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const closed = () => onClose.current();
    element.addEventListener('close', closed);
    element.showModal();
    return () => {
      element.removeEventListener('close', closed);
      if (element.open) element.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog ref={dialog} class="edit-dialog" aria-labelledby={`${props.id}-title`}>
      <div class="edit-dialog-head">
        <h2 id={`${props.id}-title`}>{props.title}</h2>
        <button type="button" onClick={() => dialog.current?.close()}>{strings.closeDialog}</button>
      </div>
      {props.children}
    </dialog>
  );
}
