// "Insert method": the library's methods in the editor's language, each inserted as a block (its length, description,
// material, and the sentence naming its source and licence) where "Add block" would put it.
import { useEffect, useState } from 'preact/hooks';
import type { LibraryCatalogue } from '../../library/catalogue.js';
import { methodDescription, type Method } from '../../library/methods.js';
import type { BlockFields } from '../edits.js';
import { languageOf, useEditor } from './context.js';
import { ModalDialog } from './dialog.js';

export function MethodDialog(props: {
  readonly library: () => Promise<LibraryCatalogue>;
  readonly onInsert: (fields: BlockFields) => void;
  readonly onClose: () => void;
}) {
  const { strings, formats } = useEditor();
  const language = languageOf(strings);
  const [catalogue, setCatalogue] = useState<LibraryCatalogue | 'loading' | 'failed'>('loading');
  useEffect(() => {
    let current = true;
    props.library().then((loaded) => { if (current) setCatalogue(loaded); }, () => { if (current) setCatalogue('failed'); });
    return () => { current = false; };
  }, [props.library]);
  const insert = (method: Method, source: LibraryCatalogue['methodSource']) => props.onInsert({
    title: method.title[language],
    duration: method.duration,
    description: methodDescription(method, source, language),
    material: method.material[language],
  });
  return (
    <ModalDialog id="method-dialog" title={strings.methodsTitle} onClose={props.onClose}>
      {catalogue === 'loading' && <p role="status">{strings.libraryLoading}</p>}
      {catalogue === 'failed' && <p role="alert">{strings.libraryFailed}</p>}
      {typeof catalogue === 'object' && (
        <>
          <p class="edit-dialog-note">
            {catalogue.methodSource[language]}{' '}
            <a href={catalogue.methodLicense} rel="license noopener" target="_blank">{strings.license}</a>
          </p>
          <ul class="method-list">
            {catalogue.methods.map((method) => (
              <li key={method.key} class="method">
                <div class="method-head">
                  <h3>{method.title[language]}</h3>
                  <span class="method-duration">{formats.duration(method.duration)}</span>
                  <button type="button" aria-label={strings.insertMethodNamed(method.title[language])} onClick={() => insert(method, catalogue.methodSource)}>
                    {strings.insert}
                  </button>
                </div>
                <p>{method.description[language]}</p>
              </li>
            ))}
          </ul>
        </>
      )}
    </ModalDialog>
  );
}
