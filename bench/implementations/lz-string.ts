// lz-string 1.5.0, the reference implementation and speed peer.

import lz from 'lz-string';
import type { CodecImplementation } from './types.js';

export const lzString: CodecImplementation = {
  name: 'lz-string',
  compress: (text) => lz.compressToEncodedURIComponent(text),
  decompress: (payload) => lz.decompressFromEncodedURIComponent(payload) ?? '',
};
