// Correctness checks before timing: every server must answer the benchmark request with the expected kind of result.
import { MODERN_CREATE_HEADERS } from '../../test/fixtures/requests.js';

export interface Outcome {
  status: number;
  isError: boolean;
  /** Tool error text (first 200 characters) or the first 60 characters of the link. */
  text: string;
  link?: string;
  ms: number;
}

async function post(url: string, body: string): Promise<{ status: number; text: string; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(url, { method: 'POST', headers: MODERN_CREATE_HEADERS, body, signal: AbortSignal.timeout(60_000) });
  const text = await res.text();
  return { status: res.status, text, ms: Math.round(performance.now() - t0) };
}

/** POSTs a tools/call create request and reads the CallToolResult; a protocol error or non-200 answer throws. */
export async function createOutcome(url: string, body: string): Promise<Outcome> {
  const r = await post(url, body);
  let msg: { result?: { isError?: boolean; content?: { text?: string }[]; structuredContent?: { link?: string } }; error?: unknown };
  try {
    msg = JSON.parse(r.text) as typeof msg;
  } catch {
    throw new Error(`${url}: HTTP ${r.status}, not a JSON answer: ${r.text.slice(0, 200)}`);
  }
  if (r.status !== 200 || !msg.result) throw new Error(`${url}: HTTP ${r.status}, no result: ${r.text.slice(0, 300)}`);
  const isError = msg.result.isError === true;
  const link = msg.result.structuredContent?.link;
  const text = isError ? (msg.result.content?.[0]?.text ?? '').slice(0, 200) : (link ?? '').slice(0, 60);
  return { status: r.status, isError, text, ms: r.ms, ...(link ? { link } : {}) };
}

/** Every server must create the same link for the small plan (and the echo must echo), or timing it means nothing. */
export async function verifySmall(ours: readonly string[], anchor: string, echo: string, body: string) {
  const outcomes = [...ours.map((url, i) => [`ours ${i + 1}`, url] as const), ['anchor', anchor] as const];
  const links: (string | undefined)[] = [];
  for (const [name, url] of outcomes) {
    const o = await createOutcome(url, body);
    if (o.isError || !o.link?.startsWith('https://sessionplan.de/#data=v2:')) throw new Error(`${name} did not create a link for the 3 KB plan: ${o.text}`);
    links.push(o.link);
  }
  const e = await post(echo, body);
  if (e.status !== 200 || e.text !== body) throw new Error(`echo server did not echo the body (HTTP ${e.status})`);
  return { identicalLinks: links.every((link) => link === links[0]) };
}

/** The ~2 MB request: a link or a tool error are both recorded (the budgets decide which); twice, keeping the second (warm). */
export async function verifyBig(url: string, body: string): Promise<Outcome> {
  await createOutcome(url, body);
  const o = await createOutcome(url, body);
  delete o.link;
  return o;
}
