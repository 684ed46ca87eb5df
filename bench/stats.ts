// What every benchmark reports and reads: the median and spread of its rounds, and its command-line options.

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The value a share `q` of the values lie below (the nearest rank): 0.5 the median's, 0.95 the p95. */
export const quantile = (values: readonly number[], q: number): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? Number.NaN;

/** "min–max" of the values with `digits` decimals. */
export const spread = (values: readonly number[], digits = 1): string => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

/** `--name N` from the command line when it is a positive number, else `fallback`. */
export function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index === -1 ? NaN : Number(process.argv[index + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** `--name text` from the command line, else undefined. */
export function textOption(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}
