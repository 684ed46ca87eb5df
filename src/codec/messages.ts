// One-sentence messages for codec failures: which budget or defect, the limit, and by how much.

import { CODEC_BUDGETS, CODEC_MEMORY_LIMIT_BYTES, INVALID_REASONS } from './errors.js';
import type { CodecErrorCode } from './errors.js';

/** What the WASM module reported about a failed call (assembly/failure.ts). */
export interface FailureDetail {
  readonly code: CodecErrorCode;
  readonly reason: number;
  readonly amount: number;
  readonly position: number;
  /** Input length: UTF-16 units for compress, characters for decompress. */
  readonly inputLength: number;
  readonly direction: 'compress' | 'decompress';
}

const number = (value: number): string => value.toLocaleString('en-US');

function describeCharacter(code: number): string {
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return code >= 0x21 && code < 0x7f ? `'${String.fromCharCode(code)}' (${hex})` : hex;
}

/** Share of the input consumed before the stop, as "x of y characters (z %)". */
function progress(detail: FailureDetail, unit: string): string {
  const percent = detail.inputLength > 0 ? (100 * detail.position) / detail.inputLength : 0;
  return `${number(detail.position)} of ${number(detail.inputLength)} ${unit} (${percent.toFixed(1)} %)`;
}

/** Rough factor by which the input is too large, extrapolated from where the budget was hit. */
function tooLargeFactor(detail: FailureDetail): string {
  const factor = detail.position > 0 ? detail.inputLength / detail.position : Infinity;
  return Number.isFinite(factor) ? `about ${factor.toFixed(1)} times too large` : 'too large';
}

function invalidMessage(detail: FailureDetail): string {
  const reason = INVALID_REASONS[detail.reason as keyof typeof INVALID_REASONS];
  switch (reason) {
    case 'empty':
      return 'Invalid payload: the payload is empty.';
    case 'bad-character':
      return `Invalid payload: character ${describeCharacter(detail.amount)} at position ${number(detail.position)} is not in the alphabet A–Z a–z 0–9 + - $.`;
    case 'first-code-3':
      return 'Invalid payload: the stream starts with code 3, which lz-string never writes.';
    case 'unknown-code':
      return `Invalid payload: code ${number(detail.amount)} near character ${number(detail.position)} refers to no dictionary entry.`;
    case 'truncated':
      return `Invalid payload: the data ends after ${number(detail.position)} characters without an end code, so it is truncated.`;
    case 'trailing-data':
      return detail.amount > 0
        ? `Invalid payload: ${number(detail.amount)} extra ${detail.amount === 1 ? 'character follows' : 'characters follow'} the end of the data at character ${number(detail.position)}, where lz-string writes nothing more.`
        : `Invalid payload: the padding after the end code in the last character is not zero, which lz-string never writes.`;
    default:
      return 'Invalid payload: the data is not an lz-string URI stream.';
  }
}

/** Builds the CodecError message for a failure reported by the WASM module. */
/** JSON_VALUE_LIMIT's `reason`: the objects and arrays were too many (else all values were). */
export const JSON_CONTAINERS_REASON = 2;

export function failureMessage(detail: FailureDetail): string {
  const { code, amount, direction } = detail;
  const what = direction === 'compress' ? 'the plan' : 'the payload';
  switch (code) {
    case 'PAYLOAD_TOO_LONG':
      return direction === 'decompress'
        ? `Payload budget exceeded: the payload has ${number(amount)} characters, ${number(amount - CODEC_BUDGETS.payloadChars)} more than the limit of ${number(CODEC_BUDGETS.payloadChars)}.`
        : `Payload budget exceeded: the compressed payload passed the limit of ${number(CODEC_BUDGETS.payloadChars)} characters after ${progress(detail, 'characters')}, so the plan is ${tooLargeFactor(detail)} and must be made smaller.`;
    case 'OUTPUT_BUDGET':
      return direction === 'compress'
        ? `Output budget exceeded: the text needs ${number(amount)} bytes as UTF-16, ${number(amount - CODEC_BUDGETS.outputBytes)} more than the limit of ${number(CODEC_BUDGETS.outputBytes)} bytes, so the plan must be made smaller.`
        : `Output budget exceeded: decoding would reach ${number(amount)} bytes of UTF-16 at payload character ${number(detail.position)}, ${number(amount - CODEC_BUDGETS.outputBytes)} more than the limit of ${number(CODEC_BUDGETS.outputBytes)} bytes.`;
    case 'DICTIONARY_BUDGET':
      return direction === 'compress'
        ? `Dictionary budget exceeded: ${what} needs more than ${number(CODEC_BUDGETS.dictionaryEntries)} dictionary entries, reached after ${progress(detail, 'characters')}, so it is ${tooLargeFactor(detail)} and must be made smaller.`
        : `Dictionary budget exceeded: ${what} needs more than ${number(CODEC_BUDGETS.dictionaryEntries)} dictionary entries, reached after ${progress(detail, 'characters')}.`;
    case 'CONTENT_BUDGET':
      return direction === 'compress'
        ? `Dictionary content budget exceeded: ${what} needs more than ${number(CODEC_BUDGETS.contentBytes)} bytes of entry content, reached after ${progress(detail, 'characters')}, so it must be made smaller.`
        : `Dictionary content budget exceeded: ${what} needs more than ${number(CODEC_BUDGETS.contentBytes)} bytes of entry content, reached after ${progress(detail, 'characters')}.`;
    case 'INVALID_PAYLOAD':
      return invalidMessage(detail);
    case 'MEMORY_LIMIT':
      return `Memory limit reached: the codec needed ${number(amount)} bytes of WebAssembly memory, more than its cap of ${number(CODEC_MEMORY_LIMIT_BYTES)}.`;
    case 'JSON_LIST_LIMIT':
      return `List limit exceeded: the text holds a JSON list of more than ${number(amount)} entries.`;
    case 'JSON_VALUE_LIMIT':
      return detail.reason === JSON_CONTAINERS_REASON
        ? `Value limit exceeded: the text holds more than ${number(amount)} JSON objects and arrays.`
        : `Value limit exceeded: the text holds more than ${number(amount)} JSON values.`;
    case 'TRAP':
      return 'Internal codec fault: the WebAssembly module trapped and was restarted, so the call can be retried.';
  }
}
