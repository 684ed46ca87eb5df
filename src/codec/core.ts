// Isomorphic codec core: wraps an instance of build/codec.wasm as a Codec (no node:* imports here).

import { CodecError, STATUS_CODES } from './errors.js';
import type { CodecErrorCode } from './errors.js';
import { failureMessage, JSON_CONTAINERS_REASON } from './messages.js';
import { memoryUtf16Reader } from './string-builtins.js';
import { isomorphicStrings } from './strings.js';
import type { Codec, CodecExports, CompressCounts, DecompressOptions, JsonShape, JsonSpan, StringTransfer } from './types.js';

export interface CodecOptions {
  /** An instance already made from `module` (e.g. by instantiateStreaming); made here otherwise. */
  readonly instance?: WebAssembly.Instance;
  /** Faster, environment-specific string transfer (node.ts injects Buffer-based versions). */
  readonly strings?: Partial<StringTransfer>;
}

/**
 * Decompressed texts from this length on are narrowed to Latin-1 when they fit. Below it both ways make the same
 * one-byte string (V8 narrows short UTF-16 itself); above ~1 M units Node makes an external string, twice the memory
 * in UTF-16.
 */
const NARROW_MIN_UNITS = 65_536;
const LATIN1_LIMIT = 256;

/**
 * The decompressed text the last decompress left in linear memory: as Latin-1 bytes when it is long and every unit fits
 * (readLatin1 given), else as UTF-16.
 */
function readOutputText(exports: CodecExports, units: number, readUtf16: StringTransfer['readUtf16'], readLatin1?: StringTransfer['readLatin1']): string {
  if (readLatin1 !== undefined && units >= NARROW_MIN_UNITS && exports.narrowOutput(units, LATIN1_LIMIT) === 1) {
    return readLatin1(exports.memory.buffer, exports.outputPointer(), units);
  }
  return readUtf16(exports.memory.buffer, exports.outputPointer(), units);
}

function instantiate(module: WebAssembly.Module): CodecExports {
  return new WebAssembly.Instance(module, {}).exports as unknown as CodecExports;
}

/** Builds a Codec around a compiled codec module; a trapped instance is replaced by a fresh one. */
export function createCodec(module: WebAssembly.Module, options: CodecOptions = {}): Codec {
  const strings: StringTransfer = { ...isomorphicStrings, ...options.strings };
  // An injected writeUtf16 (node.ts's Buffer) replaces the payload fast path too, unless a writeAscii comes with it.
  const writeAscii = options.strings?.writeUtf16 === undefined ? strings.writeAscii : options.strings.writeAscii;
  const injectedReadUtf16 = options.strings?.readUtf16;
  const readLatin1 = strings.readLatin1;
  let wasm: CodecExports | undefined =
    options.instance !== undefined ? (options.instance.exports as unknown as CodecExports) : instantiate(module);

  function exportsOrRestart(): CodecExports {
    if (wasm !== undefined) return wasm;
    try {
      wasm = instantiate(module);
      return wasm;
    } catch {
      // Some browsers refuse synchronous instantiation on the main thread; restart asynchronously.
      void WebAssembly.instantiate(module, {}).then((instance) => {
        wasm ??= instance.exports as unknown as CodecExports;
      });
      throw new CodecError('TRAP', failureMessage(trapDetail()));
    }
  }

  function fail(exports: CodecExports, status: number, direction: 'compress' | 'decompress', inputLength: number): never {
    const code: CodecErrorCode = STATUS_CODES[status] ?? 'TRAP';
    const message = failureMessage({
      code,
      reason: exports.errorReason(),
      amount: exports.errorAmount(),
      position: exports.errorPosition(),
      inputLength,
      direction,
    });
    throw new CodecError(code, message);
  }

  /** Runs one call; any non-CodecError (a trap, or a helper failing) discards the instance. */
  function guarded<T>(call: (exports: CodecExports) => T): T {
    const exports = exportsOrRestart();
    try {
      return call(exports);
    } catch (error) {
      if (error instanceof CodecError) throw error;
      wasm = undefined;
      throw new CodecError('TRAP', failureMessage(trapDetail()));
    }
  }

  /**
   * One round trip through the module: reserve input space, copy the string in, run, and let `finish` read the
   * output. A payload that is all ASCII (every valid one is) goes in as bytes, a bulk copy instead of a per-character
   * loop.
   */
  function transfer<T>(direction: 'compress' | 'decompress', input: string | readonly string[], finish: (exports: CodecExports, length: number) => T): T {
    return guarded((exports) => {
      const units = typeof input === 'string' ? input.length : totalLength(input);
      const pointer = exports[`${direction}Begin` as const](units);
      if (pointer < 0) fail(exports, pointer, direction, units);
      let length: number;
      if (typeof input !== 'string') {
        // Pieces are written one after the other, each where it is (no joined copy of a long text).
        let offset = pointer;
        for (const piece of input) {
          strings.writeUtf16(exports.memory.buffer, offset, piece);
          offset += piece.length * 2;
        }
        length = exports[direction](units);
      } else if (direction === 'decompress' && writeAscii?.(exports.memory.buffer, pointer, input) === true) {
        length = exports.decompressAscii(units);
      } else {
        strings.writeUtf16(exports.memory.buffer, pointer, input);
        length = exports[direction](units);
      }
      if (length < 0) fail(exports, length, direction, units);
      return finish(exports, length);
    });
  }

  /**
   * The decompressed text, after the checks the options ask for; undefined when `take` declines it (decompressIf).
   * `take` is asked before the measure, so a text declined on its length alone is not even measured.
   */
  function readText(exports: CodecExports, units: number, options: DecompressOptions | undefined, take?: (units: number, shape: JsonShape | undefined) => boolean): string | undefined {
    if (take !== undefined && !take(units, undefined)) return undefined;
    const maxEntries = options?.maxJsonListEntries;
    // n entries take at least 2n − 1 units ("0,0,…"), so only a longer text needs the look.
    if (maxEntries !== undefined && units >= 2 * maxEntries + 1 && exports.outputHasListOver(units, maxEntries) === 1) {
      throw new CodecError('JSON_LIST_LIMIT', failureMessage({ code: 'JSON_LIST_LIMIT', reason: 0, amount: maxEntries, position: 0, inputLength: units, direction: 'decompress' }));
    }
    // Each value takes at least one unit and each object or array two, so only a longer text needs the measure.
    const maxValues = options?.maxJsonValues;
    const maxContainers = options?.maxJsonContainers;
    const measureOver = options?.measureJsonOver;
    if (take !== undefined || (maxValues !== undefined && units > maxValues) || (maxContainers !== undefined && units > 2 * maxContainers) || (measureOver !== undefined && units > measureOver)) {
      const writtenBytes = exports.outputJsonShape(units, maxValues ?? UNLIMITED, maxContainers ?? UNLIMITED);
      if (maxContainers !== undefined && exports.jsonContainers() > maxContainers) throw valueLimit(maxContainers, JSON_CONTAINERS_REASON, units);
      if (maxValues !== undefined && exports.jsonValues() > maxValues) throw valueLimit(maxValues, 0, units);
      const shape = shapeOf(exports, units, writtenBytes);
      options?.onJsonShape?.(shape);
      if (take !== undefined && !take(units, shape)) return undefined;
    }
    // The engine's string builtin (strings.ts) is bound to one memory, so it is looked up per instance.
    return readOutputText(exports, units, injectedReadUtf16 ?? memoryUtf16Reader(exports.memory), readLatin1);
  }

  return {
    compress(text: string | readonly string[]): string {
      if (typeof text !== 'string' && !(Array.isArray(text) && text.every((piece) => typeof piece === 'string'))) {
        throw new TypeError('compress(text) expects a string or an array of strings.');
      }
      return transfer('compress', text, (exports, length) => strings.readAscii(exports.memory.buffer, exports.outputPointer(), length));
    },
    decompress(payload: string, options?: DecompressOptions): string {
      if (typeof payload !== 'string') throw new TypeError('decompress(payload) expects a string.');
      // Without `take` the text is always made.
      return transfer('decompress', payload, (exports, units) => readText(exports, units, options) as string);
    },
    decompressIf(payload: string, take: (units: number, shape: JsonShape | undefined) => boolean, options?: DecompressOptions): string | undefined {
      if (typeof payload !== 'string' || typeof take !== 'function') throw new TypeError('decompressIf(payload, take) expects a string and a function.');
      return transfer('decompress', payload, (exports, units) => readText(exports, units, options, take));
    },
    decompressedLength(payload: string): number {
      if (typeof payload !== 'string') throw new TypeError('decompressedLength(payload) expects a string.');
      return transfer('decompress', payload, (_exports, length) => length);
    },
    lastCompressCounts(): CompressCounts {
      // A fresh instance (after a trap) has compressed nothing yet and reads 0, 0.
      const exports = exportsOrRestart();
      return { dictionaryEntries: exports.compressedEntries(), contentBytes: exports.compressedContentBytes() };
    },
    jsonShape(payload: string): JsonShape {
      if (typeof payload !== 'string') throw new TypeError('jsonShape(payload) expects a string.');
      return transfer('decompress', payload, (exports, units) => {
        return shapeOf(exports, units, exports.outputJsonShape(units, UNLIMITED, UNLIMITED));
      });
    },
    canonicalJsonSpan(json: string, path: readonly string[]): JsonSpan | undefined {
      if (typeof json !== 'string' || !path.every((key) => typeof key === 'string' && key.length <= MAX_PATH_KEY_UNITS)) {
        throw new TypeError(`canonicalJsonSpan(json, path) expects a string and keys of at most ${MAX_PATH_KEY_UNITS} units.`);
      }
      return guarded((exports) => {
        let units = json.length;
        for (const key of path) units += 1 + key.length;
        // The text goes where compress reads its input; a text over the input budget is simply not looked at.
        const pointer = exports.compressBegin(units);
        if (pointer < 0) return undefined;
        const memory = exports.memory.buffer;
        strings.writeUtf16(memory, pointer, json);
        // The keys are a few short words: unit by unit into one view.
        const keyUnits = new Uint16Array(memory, pointer + json.length * 2, units - json.length);
        let at = 0;
        for (const key of path) {
          keyUnits[at++] = key.length;
          for (let i = 0; i < key.length; i++) keyUnits[at++] = key.charCodeAt(i);
        }
        const start = exports.canonicalSpan(json.length, path.length);
        return start < 0 ? undefined : { start, end: exports.spanEnd(), members: exports.spanMembers() };
      });
    },
  };
}

const UNLIMITED = 0x7fffffff;

/** The counts the last measure left in the module's globals. */
function shapeOf(exports: CodecExports, units: number, writtenBytes: number): JsonShape {
  return {
    units,
    values: exports.jsonValues(),
    containers: exports.jsonContainers(),
    writtenBytes,
    looseNumbers: exports.jsonLooseNumbers(),
    loneSurrogates: exports.jsonLoneSurrogates(),
  };
}

function valueLimit(limit: number, reason: number, units: number): CodecError {
  return new CodecError('JSON_VALUE_LIMIT', failureMessage({ code: 'JSON_VALUE_LIMIT', reason, amount: limit, position: 0, inputLength: units, direction: 'decompress' }));
}

/** Path keys are written with their length in one UTF-16 unit. */
const MAX_PATH_KEY_UNITS = 0xffff;

function totalLength(pieces: readonly string[]): number {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  return length;
}

function trapDetail() {
  return { code: 'TRAP', reason: 0, amount: 0, position: 0, inputLength: 0, direction: 'compress' } as const;
}
