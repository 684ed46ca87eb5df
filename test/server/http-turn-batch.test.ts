// Requests of one event-loop turn start together: the batch's order and bounds, a request aborted while it waits,
// and, on real servers over both adapters, answers that stay with their own requests when many arrive at once.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpCore } from '../../src/http/core.js';
import { READ_BODY } from '../../src/http/core.js';
import { RequestCycle, type ResponseWriter } from '../../src/http/request-cycle.js';
import { MAX_TURN_BATCH, TurnBatch, type TurnJob } from '../../src/http/turn-batch.js';
import type { HttpResponse } from '../../src/http/types.js';
import { decodeSessionLink } from '../../src/index.js';
import { minimalSession } from '../fixtures/sessions.js';
import { stubCore } from '../fixtures/stub-core.js';
import { JSON_HEADERS, parseRaw, raw, startOn, TRANSPORTS, type TestServer } from '../support/http.js';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function recorder(log: string[]): (name: string) => TurnJob {
  return (name) => ({ begin: () => void log.push(name), failed: () => void log.push(`${name} failed`) });
}

describe('TurnBatch', () => {
  it('starts the first job of a turn at once and the others of that turn together at its end, in order', async () => {
    const batch = new TurnBatch();
    const log: string[] = [];
    const job = recorder(log);
    batch.add(job('a'));
    expect(log).toEqual(['a']);
    batch.add(job('b'));
    batch.add(job('c'));
    expect(log).toEqual(['a']);
    expect(batch.waiting).toBe(2);
    await nextTurn();
    expect(log).toEqual(['a', 'b', 'c']);
    // A new turn: its first job starts at once again.
    batch.add(job('d'));
    expect(log).toEqual(['a', 'b', 'c', 'd']);
  });

  it(`starts at most ${MAX_TURN_BATCH} at a turn's end; the rest go first at the next turn's end`, async () => {
    const batch = new TurnBatch();
    const log: string[] = [];
    const job = recorder(log);
    batch.add(job('first'));
    for (let i = 0; i < MAX_TURN_BATCH + 5; i++) batch.add(job(`w${i}`));
    await nextTurn();
    expect(log).toHaveLength(1 + MAX_TURN_BATCH);
    expect(log.at(-1)).toBe(`w${MAX_TURN_BATCH - 1}`);
    // The turn is still open: a newcomer waits behind the five left over.
    batch.add(job('late'));
    expect(batch.waiting).toBe(6);
    await nextTurn();
    expect(log.slice(1 + MAX_TURN_BATCH)).toEqual(['w32', 'w33', 'w34', 'w35', 'w36', 'late']);
    expect(batch.waiting).toBe(0);
    batch.add(job('next'));
    expect(log.at(-1)).toBe('next');
  });

  it('keeps going past a job that throws, and hands that job what it threw', async () => {
    const batch = new TurnBatch();
    const log: string[] = [];
    const job = recorder(log);
    batch.add(job('a'));
    batch.add({
      begin: () => {
        throw new Error('broken job');
      },
      failed: (error) => void log.push(`b: ${(error as Error).message}`),
    });
    batch.add(job('c'));
    await nextTurn();
    expect(log).toEqual(['a', 'b: broken job', 'c']);
  });
});

describe('RequestCycle in a turn', () => {
  /** A core that lets every POST through and answers it with its own text; records what it was asked to handle. */
  function echoCore(handled: string[]): HttpCore {
    return stubCore({
      head: () => READ_BODY,
      handle: async (_exchange, body) => {
        const text = body.text();
        handled.push(text);
        return { status: 200, headers: {}, body: text };
      },
    });
  }

  function cycle(core: HttpCore, written: string[], settled: () => void): RequestCycle {
    const writer: ResponseWriter = {
      write: (response: HttpResponse) => {
        written.push(String(response.body));
        return 0;
      },
      closeAfterBody: () => {},
      destroy: () => {},
    };
    const request = { method: 'POST', path: '/x', headers: { 'content-length': '1' }, socketAddress: '192.0.2.1', httpVersion: '1.1', headerLines: 1 };
    const started = new RequestCycle(core, request, writer, { closing: () => false, started: () => {}, settled });
    started.start();
    return started;
  }

  const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

  it('hands the first body of a turn over at once and the later ones at its end; all are answered', async () => {
    const handled: string[] = [];
    const written: string[] = [];
    const core = echoCore(handled);
    const cycles = ['1', '2', '3'].map(() => cycle(core, written, () => {}));
    cycles.forEach((c, i) => c.data(bytes(String(i + 1)), true, false));
    expect(handled).toEqual(['1']);
    await nextTurn();
    expect(handled).toEqual(['1', '2', '3']);
    await nextTurn();
    expect(written.sort()).toEqual(['1', '2', '3']);
  });

  it('never hands over a request aborted while it waited for its turn, and settles it once', async () => {
    const handled: string[] = [];
    const written: string[] = [];
    const core = echoCore(handled);
    let settled = 0;
    const first = cycle(core, written, () => settled++);
    const second = cycle(core, written, () => settled++);
    first.data(bytes('a'), true, false);
    second.data(bytes('b'), true, false);
    second.abort();
    await nextTurn();
    await nextTurn();
    expect(handled).toEqual(['a']);
    expect(written).toEqual(['a']);
    expect(settled).toBe(2);
  });
});

describe.each(TRANSPORTS)('%s adapter: many requests in one turn', (transport) => {
  const start = startOn(transport);
  let server: TestServer;
  beforeAll(async () => {
    server = await start({ RATE_LIMIT: '100000' });
  });
  afterAll(() => server.close());

  /** Opens `count` connections, then writes one request on each in one synchronous loop, so that they arrive together. */
  async function sendTogether(bodies: string[]): Promise<string[]> {
    const sockets = await Promise.all(
      bodies.map(
        () =>
          new Promise<Socket>((resolve, reject) => {
            const socket = connect(server.port, '127.0.0.1', () => resolve(socket));
            socket.once('error', reject);
          }),
      ),
    );
    const answers = sockets.map(
      (socket) =>
        new Promise<string>((resolve, reject) => {
          let text = '';
          socket.setEncoding('utf8');
          socket.on('data', (chunk: string) => {
            text += chunk;
            const { headers, body } = parseRaw(text);
            if (Buffer.byteLength(body) === Number(headers['content-length'])) {
              socket.destroy();
              resolve(text);
            }
          });
          socket.setTimeout(20_000, () => reject(new Error('no complete answer within 20 s')));
          socket.once('error', reject);
        }),
    );
    const heads = Object.entries({ ...JSON_HEADERS, host: server.host }).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    sockets.forEach((socket, i) => socket.write(`POST /api/session-links HTTP/1.1\r\n${heads}content-length: ${Buffer.byteLength(bodies[i]!)}\r\n\r\n${bodies[i]}`));
    return Promise.all(answers);
  }

  const pingFrame = (id: number): string => {
    const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
    return `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  };

  /** Writes `frames` on one new connection in one write (pipelined); what came back within 500 ms of quiet. */
  const pipelined = (frames: string[]): Promise<string> => raw(server.port, [frames.join('')], 500);
  const answerIds = (text: string): number[] => [...text.matchAll(/"id":(\d+)/g)].map((m) => Number(m[1]));

  it('answers two pipelined POSTs to an idle server, in order (the first of a turn is answered at once)', async () => {
    expect(answerIds(await pipelined([pingFrame(1), pingFrame(2)]))).toEqual([1, 2]);
  });

  if (transport === 'node') {
    it('answers pipelined POSTs in order while many arrive in one turn', async () => {
      const texts = await Promise.all(Array.from({ length: MAX_TURN_BATCH + 8 }, (_, i) => pipelined([pingFrame(3 * i + 1), pingFrame(3 * i + 2), pingFrame(3 * i + 3)])));
      texts.forEach((text, i) => expect(answerIds(text)).toEqual([3 * i + 1, 3 * i + 2, 3 * i + 3]));
    });
  }

  it(`answers ${MAX_TURN_BATCH + 8} creates sent at once, each with the link of its own plan`, async () => {
    const titles = Array.from({ length: MAX_TURN_BATCH + 8 }, (_, i) => `Plan number ${i}`);
    const bodies = titles.map((title) => JSON.stringify({ session: { ...minimalSession(), workshop: { title, description: '' } } }));
    const answers = await sendTogether(bodies);
    for (let i = 0; i < titles.length; i++) {
      const { status, body } = parseRaw(answers[i]!);
      expect(status, body).toBe(200);
      const { session } = await decodeSessionLink(JSON.parse(body).link as string);
      expect(session.workshop.title).toBe(titles[i]);
    }
  });
});
