// Public codec types and the numeric interface of the WASM module (assembly/index.ts).

/** lz-string `compressToEncodedURIComponent` / `decompressFromEncodedURIComponent`, with budgets. */
export interface Codec {
  /**
   * Text → payload (the part after `v2:`); throws CodecError when a budget is exceeded. The text may be given in
   * pieces (their concatenation is compressed): a long text need not be one string.
   */
  compress(text: string | readonly string[]): string;
  /**
   * Payload → text; throws CodecError for over-budget or invalid payloads. `options.maxJsonListEntries`: the text is
   * JSON to be parsed, and a list of more entries is refused (JSON_LIST_LIMIT) before the text is made.
   */
  decompress(payload: string, options?: DecompressOptions): string;
  /**
   * decompress for a caller that weighs a text before taking it: `take` is asked once the text's length is known (with
   * `shape` undefined) and, unless it said no, once more with the text's JsonShape (every text is measured). The text
   * is made only when both answers are true; otherwise undefined is returned. So a caller that decodes here only what
   * is cheap to decode here decompresses a link once either way. Options and errors as decompress.
   */
  decompressIf(payload: string, take: (units: number, shape: JsonShape | undefined) => boolean, options?: DecompressOptions): string | undefined;
  /**
   * Payload → the number of UTF-16 units of its text, without making the text (to judge what decoding a link costs
   * before doing it); throws exactly as decompress does.
   */
  decompressedLength(payload: string): number;
  /**
   * Payload → what its text costs as JSON, without making the text: its length, its values and containers, and the
   * bytes JSON.stringify writes for its parsed value (an upper bound: exact but for numbers and duplicate keys). Throws
   * exactly as decompress does.
   */
  jsonShape(payload: string): JsonShape;
  /**
   * Where the JSON text `json` holds the value at `path` (object keys from the top), when that value is written
   * exactly as JSON.stringify writes it, so that compressing `json.slice(start, end)` is compressing its
   * serialization: no whitespace, stringify's escapes, integers of at most 15 digits, array-index keys first and
   * ascending, each path key once and unescaped. `members` counts the object members in the value: duplicate keys
   * (which JSON.parse merges) are the one difference left to the caller, who compares it with the parsed value's keys.
   * undefined otherwise, or when the text is too long for the compressor's input budget.
   */
  canonicalJsonSpan(json: string, path: readonly string[]): JsonSpan | undefined;
  /**
   * The budget counts of the last successful compress, exactly what decoding its payload will count (docs/codec.md,
   * "Budgets"): for showing how near a plan is to the dictionary and content budgets before it crosses one.
   */
  lastCompressCounts(): CompressCounts;
}

/** What a payload costs its decoder besides its length: dictionary entries and entry content bytes. */
export interface CompressCounts {
  readonly dictionaryEntries: number;
  readonly contentBytes: number;
}

export interface JsonSpan {
  readonly start: number;
  readonly end: number;
  readonly members: number;
}

export interface DecompressOptions {
  /** Refuse a text holding a JSON list of more entries than this (read from linear memory, before JSON.parse). */
  readonly maxJsonListEntries?: number;
  /** Refuse a text holding more JSON values than this (JSON_VALUE_LIMIT), read the same way. */
  readonly maxJsonValues?: number;
  /** Refuse a text holding more JSON objects and arrays than this (JSON_VALUE_LIMIT), read the same way. */
  readonly maxJsonContainers?: number;
  /** Measure (and hand onJsonShape) any text longer than this many units, also when no limit above asks for it. */
  readonly measureJsonOver?: number;
  /** Called with the text's JsonShape when it was measured for those limits (texts long enough to reach them). */
  readonly onJsonShape?: (shape: JsonShape) => void;
}

/** A decompressed text read as JSON (Codec.jsonShape). */
export interface JsonShape {
  /** UTF-16 units of the text. */
  readonly units: number;
  /** Values: strings (not keys), numbers, literals, objects and arrays. */
  readonly values: number;
  /** Objects and arrays. */
  readonly containers: number;
  /**
   * UTF-8 bytes JSON.stringify writes for the parsed text, at most (escapes included, white space dropped): exact for
   * strings, literals, brackets and integers of up to 15 digits; 25 bytes (the longest form) for any other number; and
   * every object member counted, also one a later duplicate key replaces.
   */
  readonly writtenBytes: number;
  /** Numbers counted as 25 bytes: each is written as at least 1, so the text is written as at least writtenBytes − 24 × this (without duplicate keys). */
  readonly looseNumbers: number;
  /** Unpaired surrogates in its strings, raw or as `\u` escapes: JSON.stringify writes each as six bytes, on V8's slow path. */
  readonly loneSurrogates: number;
}

/** Moves strings in and out of linear memory; environments may inject faster versions. */
export interface StringTransfer {
  /** Writes `text` as UTF-16LE code units at byte offset `pointer`. */
  writeUtf16(memory: ArrayBuffer, pointer: number, text: string): void;
  /** Reads `units` UTF-16LE code units at `pointer`, exactly (BOM kept, lone surrogates kept). */
  readUtf16(memory: ArrayBuffer, pointer: number, units: number): string;
  /** Reads `length` ASCII bytes at `pointer`. */
  readAscii(memory: ArrayBuffer, pointer: number, length: number): string;
  /**
   * Optional: reads `length` Latin-1 bytes (U+0000–U+00FF) at `pointer`. When present, a long decompressed text whose
   * units all fit is narrowed to bytes in linear memory and read with it: a one-byte string, half the memory.
   */
  readLatin1?(memory: ArrayBuffer, pointer: number, length: number): string;
  /**
   * Optional bulk path for payloads: writes `text` as one byte per character at `pointer` and returns true
   * when every character is ASCII; returns false (the caller then uses writeUtf16) otherwise.
   */
  writeAscii?(memory: ArrayBuffer, pointer: number, text: string): boolean;
}

/** The exports of build/codec.wasm. Negative numbers are statuses (assembly/status.ts). */
export interface CodecExports {
  readonly memory: WebAssembly.Memory;
  compressBegin(units: number): number;
  compress(units: number): number;
  decompressBegin(chars: number): number;
  decompress(chars: number): number;
  /** decompress() for a payload written as one byte per character (see StringTransfer.writeAscii). */
  decompressAscii(chars: number): number;
  /** After decompress, before narrowOutput: 1 when the output, as JSON text, has a list of more than `maxEntries` entries. */
  outputHasListOver(units: number, maxEntries: number): number;
  /** After decompress, before narrowOutput: the written bytes of the output as JSON, at most; then the two counts. */
  outputJsonShape(units: number, maxValues: number, maxContainers: number): number;
  jsonLoneSurrogates(): number;
  jsonValues(): number;
  jsonContainers(): number;
  jsonLooseNumbers(): number;
  /** After decompress: 1 when every output unit is below `limit` and the output now holds one byte per unit, else 0. */
  narrowOutput(units: number, limit: number): number;
  /** For a JSON text at compressBegin's pointer followed by path keys: where the value at the path starts, or -1. */
  canonicalSpan(units: number, pathKeys: number): number;
  /** After canonicalSpan: where the value ends and how many object members it holds. */
  spanEnd(): number;
  spanMembers(): number;
  outputPointer(): number;
  /** After a successful compress: the dictionary entries and entry content bytes its decoding will count. */
  compressedEntries(): number;
  compressedContentBytes(): number;
  errorReason(): number;
  errorAmount(): number;
  errorPosition(): number;
}
