// Codec error codes (one table, mirroring assembly/status.ts), the budgets, and the CodecError class.

/**
 * Every way a codec call can fail. TRAP, JSON_LIST_LIMIT and JSON_VALUE_LIMIT are JS-only: the WASM module faulted and
 * was restarted; a decompressed text had a longer JSON list, or more JSON values, than the caller allowed
 * (DecompressOptions).
 */
export type CodecErrorCode =
  | 'PAYLOAD_TOO_LONG'
  | 'OUTPUT_BUDGET'
  | 'DICTIONARY_BUDGET'
  | 'CONTENT_BUDGET'
  | 'INVALID_PAYLOAD'
  | 'MEMORY_LIMIT'
  | 'JSON_LIST_LIMIT'
  | 'JSON_VALUE_LIMIT'
  | 'TRAP';

/** The codec budgets (docs/codec.md, "Budgets"); the same numbers are compiled into assembly/budgets.ts. */
export const CODEC_BUDGETS = {
  /** Characters of payload after `v2:`. */
  payloadChars: 750_000,
  /** Bytes of UTF-16 working output (2 per code unit). */
  outputBytes: 4_000_000,
  /** Dictionary entries (lz-string's dictSize − 3). */
  dictionaryEntries: 65_536,
  /** Bytes of dictionary entry content (2 per unit, summed over entries). */
  contentBytes: 8_000_000,
} as const;

/** The WASM memory cap (asconfig.json maximumMemory: 112 pages of 64 KiB), enough for every budget. */
export const CODEC_MEMORY_LIMIT_BYTES = 112 * 65_536;

/** WASM status (negative return value) → error code; assembly/status.ts defines the numbers. */
export const STATUS_CODES: Readonly<Record<number, CodecErrorCode>> = {
  [-1]: 'PAYLOAD_TOO_LONG',
  [-2]: 'OUTPUT_BUDGET',
  [-3]: 'DICTIONARY_BUDGET',
  [-4]: 'CONTENT_BUDGET',
  [-5]: 'INVALID_PAYLOAD',
  [-6]: 'MEMORY_LIMIT',
};

/** Why a payload is INVALID_PAYLOAD (assembly/status.ts REASON_*). */
export const INVALID_REASONS = {
  1: 'empty',
  2: 'bad-character',
  3: 'first-code-3',
  4: 'unknown-code',
  5: 'truncated',
  6: 'trailing-data',
} as const;

export type InvalidReason = (typeof INVALID_REASONS)[keyof typeof INVALID_REASONS];

/** A refused compress/decompress call; `message` is one sentence naming the budget or defect. */
export class CodecError extends Error {
  readonly code: CodecErrorCode;

  constructor(code: CodecErrorCode, message: string) {
    super(message);
    this.name = 'CodecError';
    this.code = code;
  }
}
