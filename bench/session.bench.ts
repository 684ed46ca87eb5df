// Session operations vs the plain peer (zod parse + lz-string JS), side by side with benny; plus the 2 MB refusal time.
import { cpus, totalmem } from 'node:os';
import b from 'benny';
import LZString from 'lz-string';
import { loadCodec } from '../src/codec/node.js';
import { SessionError } from '../src/session/errors.js';
import { createSessionOperations } from '../src/session/operations.js';
import { sessionSchema } from '../src/session/schema.js';
import { minimalSession, planOfSize } from '../test/fixtures/sessions.js';
import { writeResults } from './results.js';
import { median } from './stats.js';

const BASE = 'https://sessionplan.de/';
const operations = createSessionOperations(loadCodec);
await loadCodec();


// ---- create + decode of a 20 KB plan, end to end ----

const plan = planOfSize(20_000);
const planBytes = JSON.stringify(plan).length;

async function ours(): Promise<void> {
  const { link } = await operations.createSessionLink(plan);
  await operations.decodeSessionLink(link);
}

/** The same work done the obvious way: one zod parse each direction, lz-string 1.5.0 in JS. */
async function peer(): Promise<void> {
  const json = JSON.stringify(sessionSchema.parse(plan));
  const link = `${BASE}#data=v2:${LZString.compressToEncodedURIComponent(json)}`;
  const payload = link.slice(link.indexOf('#data=v2:') + 9);
  sessionSchema.parse(JSON.parse(LZString.decompressFromEncodedURIComponent(payload) ?? ''));
}

// Both must produce the same link before anything is timed.
const check = await operations.createSessionLink(plan);
if (check.link !== `${BASE}#data=v2:${LZString.compressToEncodedURIComponent(JSON.stringify(sessionSchema.parse(plan)))}`)
  throw new Error('ours and the peer disagree on the link; the comparison would be meaningless');

// benny times an async case through benchmark.js's deferred mode: one timer turn per call, and on a loaded machine
// the process may wait for the CPU at every such turn. Each call therefore runs a batch of round trips long enough
// (~0.1 s for both cases) to make that per-call cost negligible, and ops are reported per round trip. The machine is
// shared, so the suite runs in rounds with the order alternating; the median ratio is the figure.
const BATCH = { ours: 200, peer: 10 };
const ROUNDS = 7;
const CASE_OPTIONS = { minSamples: 8, maxTime: 2 }; // seconds per case and round
const OURS = 'sessionplan (canonical check or zod, rule walk, WASM codec)';
const PEER = 'peer (zod parse + lz-string JS)';
const cases = {
  [OURS]: async () => {
    for (let i = 0; i < BATCH.ours; i++) await ours();
  },
  [PEER]: async () => {
    for (let i = 0; i < BATCH.peer; i++) await peer();
  },
};
const batchOf = (name: string): number => (name === OURS ? BATCH.ours : BATCH.peer);

const rounds: { order: string[]; oursOpsPerSec: number; peerOpsPerSec: number; ratio: number }[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? [OURS, PEER] : [PEER, OURS];
  const summary = await b.suite(
    `create + decode, ${planBytes.toLocaleString('en-US')}-byte plan (ops = calls of ${BATCH.ours} / ${BATCH.peer} round trips), round ${round + 1}/${ROUNDS}`,
    ...order.map((name) => b.add(name, cases[name as keyof typeof cases])),
    b.configure({ cases: CASE_OPTIONS }),
    b.cycle(),
    b.complete(),
  );
  // Per round trip, from the median seconds per call (benny's `ops` is rounded to whole calls per second).
  const opsOf = (name: string): number => batchOf(name) / (summary.results.find((r) => r.name === name)?.details.median ?? Number.NaN);
  rounds.push({ order, oursOpsPerSec: Math.round(opsOf(OURS)), peerOpsPerSec: Math.round(opsOf(PEER)), ratio: Number((opsOf(OURS) / opsOf(PEER)).toFixed(2)) });
}
const ratio = median(rounds.map((r) => r.ratio));

// ---- refusal of 2 MB plans, JSON parse included ----

function noise(length: number): string {
  let state = 11;
  const parts: string[] = [];
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    parts.push(String.fromCharCode(0x4e00 + (state % 2000)));
  }
  return parts.join('');
}

const refusals = {
  // Over the 2,000,000-byte JSON limit: refused by the size check.
  overByteLimit: JSON.stringify({ ...minimalSession(), workshop: { title: 'Huge', description: 'Lorem ipsum dolor sit amet. '.repeat(71_500) } }),
  // Just under the byte limit (3-byte characters), but far over the 65,536-entry dictionary budget: the codec stops early.
  overCodecBudget: JSON.stringify({ ...minimalSession(), workshop: { title: 'Dense', description: noise(666_000) } }),
};

async function refusalMs(text: string): Promise<number> {
  const started = performance.now();
  try {
    await operations.createSessionLink(JSON.parse(text));
  } catch (error) {
    if (!(error instanceof SessionError)) throw error;
    return performance.now() - started;
  }
  throw new Error('the 2 MB plan was accepted');
}

const RUNS = 31;
const refusalFigures: Record<string, { bytes: number; medianMs: number; minMs: number; maxMs: number; runs: number }> = {};
for (const [name, text] of Object.entries(refusals)) {
  for (let i = 0; i < 3; i++) await refusalMs(text); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await refusalMs(text));
  refusalFigures[name] = {
    bytes: Buffer.byteLength(text),
    medianMs: Number(median(samples).toFixed(2)),
    minMs: Number(Math.min(...samples).toFixed(2)),
    maxMs: Number(Math.max(...samples).toFixed(2)),
    runs: RUNS,
  };
}

const figures = {
  benchmark: 'session operations',
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, platform: process.platform },
  createDecode20KB: {
    planBytes,
    roundTripsPerCall: BATCH,
    caseOptions: CASE_OPTIONS,
    unit: 'round trips (create + decode) per second, from the median time per call',
    rounds,
    ratio,
    goal: '>= 10 (median ratio of the rounds)',
    met: ratio >= 10,
  },
  refusal2MB: { ...refusalFigures, goal: 'median < 60 ms', met: Object.values(refusalFigures).every((f) => f.medianMs < 60) },
};
console.log(JSON.stringify(figures, null, 2));
console.log(`saved ${writeResults('session.json', figures).join(' and ')}`);
