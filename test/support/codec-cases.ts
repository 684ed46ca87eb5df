// The codec's differential inputs, generated from a seed so Node and a browser page build the very same strings (no transfer).

/** Deterministic PRNG (xorshift32); the same seed yields the same cases everywhere. */
function random32(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}

/** Fixed edge cases: empty, one char, BOM, lone and paired surrogates, __proto__-heavy text, every code unit (in chunks). */
function fixedCases(): string[] {
  const cases = ['', 'a', '\uFEFF', '\uFEFFhello', '\uD800', '\uDFFF', 'x\uD800y', '😀', '👩‍👩‍👧', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    'abababababababababababab', '__proto__ constructor prototype __proto__ hasOwnProperty', '{"__proto__":{"polluted":true}}',
    'Grüße aus Köln – Straße, Maß, Øre, ½ € ✓', ' \t\r\n', '%20+-$=&#?'];
  // All 65,536 code units, in chunks small enough to stay inside the dictionary budget.
  for (let start = 0; start < 0x10000; start += 4096) {
    let chunk = '';
    for (let unit = start; unit < start + 4096; unit += 1) chunk += String.fromCharCode(unit);
    cases.push(chunk);
  }
  return cases;
}

const ALPHABETS = [
  'abcdefghijklmnopqrstuvwxyz ',
  'ABCabc012 {}[]":,.-äöüß',
  'aaaaab',
];

/** `count` random strings of mixed kinds: small alphabets (long phrases), any BMP unit, surrogate pairs, lone surrogates. */
export function differentialCases(seed: number, count: number): string[] {
  const next = random32(seed);
  const cases = fixedCases();
  for (let index = 0; index < count; index += 1) {
    const length = Math.floor(next() ** 2 * 1200);
    const kind = index % 4;
    let text = '';
    for (let position = 0; position < length; position += 1) {
      if (kind === 0) {
        const alphabet = ALPHABETS[index % ALPHABETS.length]!;
        text += alphabet[Math.floor(next() * alphabet.length)];
      } else if (kind === 1) text += String.fromCharCode(Math.floor(next() * 0x10000));
      else if (kind === 2) text += String.fromCodePoint(0x1f300 + Math.floor(next() * 0x300));
      else text += next() < 0.1 ? String.fromCharCode(0xd800 + Math.floor(next() * 0x800)) : String.fromCharCode(0x20 + Math.floor(next() * 0x5f));
    }
    cases.push(text);
  }
  return cases;
}
