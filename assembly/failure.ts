// Details of the last failure, read by the JS glue to build a one-sentence error message.

/** INVALID_PAYLOAD reason, or 0. */
export let failReason: i32 = 0;
/** The amount that crossed the budget (bytes, entries, characters), or an offending code/character. */
export let failAmount: i32 = 0;
/** Where it happened: input code units consumed (compress) or payload characters read (decompress). */
export let failPosition: i32 = 0;

/** Records a failure and returns its status so callers can `return fail(...)`. */
export function fail(status: i32, reason: i32, amount: i32, position: i32): i32 {
  failReason = reason;
  failAmount = amount;
  failPosition = position;
  return status;
}

export function clearFailure(): void {
  failReason = 0;
  failAmount = 0;
  failPosition = 0;
}
