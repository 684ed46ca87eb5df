// What the page lends the editor: create's validation and codec, bound to the page's codec and origin (docs/viewer.md).
import type { Codec } from '../codec/types.js';
import { encodeDraft, type Encoded } from './encode.js';
import { importJson, type Imported } from './import-file.js';

// Why a host: the view already carries the session code (zod, the rules, the codec glue) to decode links. The editor,
// loaded on demand, gets these functions from it instead of a second copy of that code (about 130 KB of its bundle).

export interface EditorHost {
  /** The base URL of the links (the page's origin and `/`): the worker makes links with it too. */
  readonly baseUrl: string;
  /** A draft to its link, exactly as the server's create would make it, or to its problems. */
  encode(draft: unknown): Encoded;
  /** A JSON file read with create's strict rules. */
  importJson(text: string): Imported;
}

export function createEditorHost(codec: Codec, baseUrl: string): EditorHost {
  return {
    baseUrl,
    encode: (draft) => encodeDraft(codec, baseUrl, draft),
    importJson: (text) => importJson(codec, baseUrl, text),
  };
}
