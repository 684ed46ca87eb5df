// The planner's Web Worker (its own bundle, started with edit mode): create's validation and the WASM codec, off the page's main thread.
import { loadCodec } from '../codec/browser.js';
import { encodeDraft } from './encode.js';
import { toWire, type EncodeRequest, type EncodeReply } from './encoder.js';

/** The content-hashed codec file next to this bundle; set by src/viewer/build.mjs. */
declare const __CODEC_WASM_FILE__: string;

// Why a worker: validating and compressing the largest plan costs about 20 ms per edit; here it runs beside the page,
// which keeps only the edit, the rendering and the address bar's write. The code is the page's (and the server's):
// encodeSession through encodeDraft, so the link is the one create makes.
/** The worker's global scope, as far as it is used (the project's types are the page's, lib "dom"). */
const scope = self as unknown as {
  addEventListener(type: 'message', listener: (event: MessageEvent<EncodeRequest>) => void): void;
  postMessage(message: EncodeReply): void;
};
const codec = loadCodec(new URL(__CODEC_WASM_FILE__, import.meta.url));

scope.addEventListener('message', (event) => {
  const { id, draft, baseUrl } = event.data;
  const fail = (error: unknown) => scope.postMessage({ id, failure: error instanceof Error ? error.message : String(error) });
  codec.then((loaded) => {
    let reply: EncodeReply;
    try {
      reply = { id, outcome: toWire(encodeDraft(loaded, baseUrl, draft), draft) };
    } catch (error) {
      return fail(error);
    }
    scope.postMessage(reply);
  }, fail);
});
