// Status codes returned by the WASM exports; mirrored one-to-one by src/codec/errors.ts.

/** Success: non-negative return values are lengths or pointers. */
export const OK: i32 = 0;
/** The payload is longer than the payload budget (checked before decoding; compress output too). */
export const PAYLOAD_TOO_LONG: i32 = -1;
/** The UTF-16 working output would exceed its byte budget. */
export const OUTPUT_BUDGET: i32 = -2;
/** The dictionary would exceed its entry budget. */
export const DICTIONARY_BUDGET: i32 = -3;
/** The summed dictionary entry content would exceed its byte budget. */
export const CONTENT_BUDGET: i32 = -4;
/** The payload is not a well-formed lz-string URI stream; errorReason() says why. */
export const INVALID_PAYLOAD: i32 = -5;
/** memory.grow failed: the module's maximumMemory cap was reached. */
export const MEMORY_LIMIT: i32 = -6;

// Reasons attached to INVALID_PAYLOAD (errorReason()).
export const REASON_EMPTY: i32 = 1;
export const REASON_BAD_CHARACTER: i32 = 2;
export const REASON_FIRST_CODE_3: i32 = 3;
export const REASON_UNKNOWN_CODE: i32 = 4;
export const REASON_TRUNCATED: i32 = 5;
export const REASON_TRAILING_DATA: i32 = 6;
