// The browser's fastest exact reader of decoded text: the engine's wasm:js-string builtins, TextDecoder for a first read.

import { isomorphicStrings } from './strings.js';
import type { StringTransfer } from './types.js';

type ReadUtf16 = StringTransfer['readUtf16'];

/*
 * The engine's `wasm:js-string` builtins (WebAssembly JS String Builtins: Chromium ≥ 130, Firefox ≥ 134, Safari ≥ 26.2) make a
 * string from a WasmGC i16 array in one bulk copy, faster in Chromium than fromCharCode chunks
 * (docs/codec.md, "Strings in the browser"). AssemblyScript emits no GC arrays, so this small module is written
 * here by hand. It imports the codec's memory, copies the units into a GC array and calls the builtin. The array
 * is kept for the next call (a new one only when it is too short): allocating and zeroing up to 4 MB per call
 * cost more than the copy. It never outgrows the codec's output budget (2,000,000 units).
 *
 * (module
 *   (type $units (array (mut i16)))
 *   (type $builtin (func (param (ref null $units) i32 i32) (result (ref extern))))
 *   (type $read (func (param i32 i32) (result externref)))
 *   (import "wasm:js-string" "fromCharCodeArray" (func $fromCharCodeArray (type $builtin)))
 *   (import "codec" "memory" (memory 0))
 *   (global $kept (mut (ref null $units)) (ref.null $units))
 *   (func (export "read") (type $read) (param $pointer i32) (param $count i32) (result externref)
 *     (local $array (ref null $units)) (local $index i32)
 *     (block $reuse
 *       (block $allocate
 *         (br_if $allocate (ref.is_null (local.tee $array (global.get $kept))))
 *         (br_if $reuse (i32.ge_u (array.len (local.get $array)) (local.get $count))))
 *       (global.set $kept (local.tee $array (array.new_default $units (local.get $count)))))
 *     (block $done (loop $copy
 *       (br_if $done (i32.ge_u (local.get $index) (local.get $count)))
 *       (array.set $units (local.get $array) (local.get $index)
 *         (i32.load16_u (i32.add (local.get $pointer) (i32.shl (local.get $index) (i32.const 1)))))
 *       (local.set $index (i32.add (local.get $index) (i32.const 1)))
 *       (br $copy)))
 *     (call $fromCharCodeArray (local.get $array) (i32.const 0) (local.get $count))))
 */
const READER_BODY = [
  2, 1, 0x63, 0, 1, 0x7f, // locals: $array (ref null $units), $index i32
  0x02, 0x40, 0x02, 0x40, // block $reuse, block $allocate
  0x23, 0, 0x22, 2, 0xd1, 0x0d, 0, // br_if $allocate (ref.is_null ($array = $kept))
  0x20, 2, 0xfb, 0x0f, 0x20, 1, 0x4f, 0x0d, 1, // br_if $reuse (array.len $array >= $count)
  0x0b, // end $allocate
  0x20, 1, 0xfb, 0x07, 0, 0x22, 2, 0x24, 0, // $kept = $array = array.new_default $units ($count)
  0x0b, // end $reuse
  0x02, 0x40, 0x03, 0x40, // block $done, loop $copy
  0x20, 3, 0x20, 1, 0x4f, 0x0d, 1, // br_if $done ($index >= $count)
  0x20, 2, 0x20, 3, 0x20, 0, 0x20, 3, 0x41, 1, 0x74, 0x6a, 0x2f, 1, 0, // $array, $index, i32.load16_u($pointer + ($index << 1))
  0xfb, 0x0e, 0, // array.set $units
  0x20, 3, 0x41, 1, 0x6a, 0x21, 3, 0x0c, 0, // $index += 1, br $copy
  0x0b, 0x0b, // end loop, end block
  0x20, 2, 0x41, 0, 0x20, 1, 0x10, 0, // call $fromCharCodeArray($array, 0, $count)
  0x0b,
];

function name(text: string): number[] {
  return [text.length, ...Array.from(text, (char) => char.charCodeAt(0))];
}

/** Section lengths are below 128, so each fits one LEB128 byte. */
function section(id: number, body: number[]): number[] {
  return [id, body.length, ...body];
}

const READER_MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, // "\0asm", version 1
  ...section(1, [3, 0x5e, 0x77, 1, 0x60, 3, 0x63, 0, 0x7f, 0x7f, 1, 0x64, 0x6f, 0x60, 2, 0x7f, 0x7f, 1, 0x6f]), // types
  ...section(2, [2, ...name('wasm:js-string'), ...name('fromCharCodeArray'), 0x00, 1, ...name('codec'), ...name('memory'), 0x02, 0, 0]),
  ...section(3, [1, 2]), // one function of type $read
  ...section(6, [1, 0x63, 0, 1, 0xd0, 0, 0x0b]), // global $kept: mutable (ref null $units), initially null
  ...section(7, [1, ...name('read'), 0x00, 1]), // export "read" = function 1 (0 is the import)
  ...section(10, [1, READER_BODY.length, ...READER_BODY]),
]);

const COMPILE_OPTIONS = { builtins: ['js-string'] };

/** The compiled reader module: undefined until compiled, null where the engine cannot compile it (no GC). */
let readerModule: WebAssembly.Module | null | undefined;

/**
 * Compiles the reader module ahead of the first decompress, off the main thread where the engine can
 * (browser.ts runs it while codec.wasm streams in); without it the first decompress compiles it synchronously.
 */
export async function prepareStringBuiltins(): Promise<void> {
  if (readerModule !== undefined) return;
  try {
    // The second argument (compile options) is part of the JS String Builtins proposal; TypeScript's lib predates it.
    const compile = WebAssembly.compile as (bytes: BufferSource, options: object) => Promise<WebAssembly.Module>;
    const module = await compile(READER_MODULE, COMPILE_OPTIONS);
    readerModule ??= module;
  } catch {
    readerModule ??= null;
  }
}

function compiledReaderModule(): WebAssembly.Module | null {
  if (readerModule === undefined) {
    try {
      readerModule = new (WebAssembly.Module as new (bytes: BufferSource, options: object) => WebAssembly.Module)(READER_MODULE, COMPILE_OPTIONS);
    } catch {
      readerModule = null;
    }
  }
  return readerModule;
}

/** One reader per codec memory; null where the engine lacks the builtins (or GC), and fromCharCode is used. */
const builtinReaders = new WeakMap<WebAssembly.Memory, ReadUtf16 | null>();

/** Exact UTF-16 decoding without a GC array: `fatal` refuses lone surrogates (undefined then), `ignoreBOM` keeps a BOM. */
const utf16Decoder = ((): TextDecoder | undefined => {
  try {
    return new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true });
  } catch {
    return undefined;
  }
})();

function decodeUtf16(buffer: ArrayBuffer, pointer: number, units: number): string | undefined {
  if (utf16Decoder === undefined) return undefined;
  try {
    return utf16Decoder.decode(new Uint16Array(buffer, pointer, units));
  } catch {
    return undefined; // a lone surrogate: the builtin reader keeps it
  }
}

function builtinReader(memory: WebAssembly.Memory): ReadUtf16 | null {
  const module = compiledReaderModule();
  if (module === null) return null;
  let read: (pointer: number, units: number) => string;
  try {
    // Engines that ignore the compile options leave the wasm:js-string import unresolved: linking fails here.
    read = new WebAssembly.Instance(module, { codec: { memory } }).exports['read'] as (pointer: number, units: number) => string;
  } catch {
    return null;
  }
  /** Length of the module's kept GC array, and the longest read that has not grown it. */
  let arrayUnits = 0;
  let seenUnits = 0;
  return (buffer, pointer, units) => {
    // The GC array pays off only when it is reused. A page's first (often only) decode would allocate and fill it
    // in fresh memory and run the copy loop in baseline code, so a length not seen before goes through TextDecoder
    // instead (docs/codec.md, "The first decode in a page"); the array is grown when that length comes again.
    if (units > arrayUnits) {
      if (units > seenUnits) {
        seenUnits = units;
        const text = decodeUtf16(buffer, pointer, units);
        if (text !== undefined) return text;
      }
      arrayUnits = units;
    }
    return read(pointer, units);
  };
}

/** The fastest exact readUtf16 for a codec's memory: the string builtin where the engine has it, fromCharCode chunks otherwise. */
export function memoryUtf16Reader(memory: WebAssembly.Memory): ReadUtf16 {
  let reader = builtinReaders.get(memory);
  if (reader === undefined) {
    reader = builtinReader(memory);
    builtinReaders.set(memory, reader);
  }
  return reader ?? isomorphicStrings.readUtf16;
}

/** True when this engine runs the builtin reader (tests assert that Chromium does, so the fast path cannot silently vanish). */
export function hasStringBuiltins(): boolean {
  return builtinReader(new WebAssembly.Memory({ initial: 1 })) !== null;
}
