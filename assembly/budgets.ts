// The four codec budgets (README "Codec", docs/codec.md "Budgets"), counted identically by the compressor and the decompressor.

/** Longest payload (characters after `v2:`) accepted or emitted. */
export const PAYLOAD_CHARS: i32 = 750_000;
/** UTF-16 working output: 2 bytes per decoded code unit. */
export const OUTPUT_BYTES: i32 = 4_000_000;
/** Dictionary entries, i.e. lz-string's `dictSize − 3`. */
export const DICTIONARY_ENTRIES: i32 = 65_536;
/** Sum of entry lengths × 2 bytes. */
export const CONTENT_BYTES: i32 = 8_000_000;

/** Highest code a dictionary within budget can hold (3 reserved codes + entries), plus slack. */
export const MAX_CODES: i32 = DICTIONARY_ENTRIES + 8;
