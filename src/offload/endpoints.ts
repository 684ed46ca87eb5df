// The endpoints with heavy POSTs handed to the offload threads: same answers and events, bodies and answers as bytes.
import type { EndpointHooks, Endpoints } from '../endpoints/endpoints.js';
import type { RequestBody } from '../http/body.js';
import type { BufferPool } from '../http/buffer-pool.js';
import { JSON_HEADERS } from '../http/headers.js';
import { ServerBusyError } from '../http/ports.js';
import type { ClientPresence, EndpointAnswer } from '../http/ports.js';
import { REST_INTERNAL_ERROR_BODY } from '../http/refusals.js';
import type { RouteAnswer } from '../http/routes.js';
import { rpcError } from '../mcp/errors.js';
import { DecodeDeclined } from '../session/errors.js';
import { bodyCost } from './cost.js';
import { revivedFailure } from './failure.js';
import type { OffloadKind } from './pool.js';
import type { OffloadPool, OffloadReply } from './pool.js';

/** The answer when a thread failed under a request: the same generic internal errors the endpoints give. */
const MCP_THREAD_FAILED_BODY = rpcError('internalError', null).body;
/** For a client that went away while its job was queued: nobody reads it (the request cycle drops it). */
const DEPARTED: EndpointAnswer = { status: 0, body: null };

/**
 * `local`, except that heavy POSTs are answered by the pool's threads (same endpoints, same answers, same events): large
 * bodies by their size, and decodes that `local` declined (built with weighDecodeHere) once it knew what their link
 * expands to. A heavy body goes to the thread in its own buffer, which comes back with the answer and returns to
 * `buffers` once the answer is written.
 */
export function offloadEndpoints(local: Endpoints, pool: OffloadPool, hooks: EndpointHooks, buffers: BufferPool): Endpoints {
  /** The thread's reply as status and body; `undefined` when the client went away, `{ failed }` when the thread failed. */
  const offload = async (kind: OffloadKind, headers: Readonly<Record<string, string>>, body: RequestBody, cost: number, presence?: ClientPresence): Promise<EndpointAnswer | { failed: unknown } | undefined> => {
    const length = body.byteLength;
    const buffer = body.takeBuffer(buffers);
    let reply: OffloadReply | undefined;
    try {
      reply = await pool.run(kind, headers, buffer, length, presence, cost);
    } catch (error) {
      buffers.give(buffer); // still ours unless a thread took it (then it is detached and give() ignores it)
      if (error instanceof ServerBusyError) throw error;
      return { failed: error };
    }
    if (reply === undefined) {
      buffers.give(buffer);
      return undefined;
    }
    for (const event of reply.events) hooks.recordEvent(event);
    const unexpected = reply.unexpected === undefined ? undefined : revivedFailure(reply.unexpected, 'an answer in an offload thread');
    const returned = reply.buffer;
    if (returned === undefined || reply.answerBytes === undefined) {
      if (returned !== undefined) buffers.give(returned);
      return { status: reply.status, body: reply.body, unexpected };
    }
    return { status: reply.status, body: new Uint8Array(returned, 0, reply.answerBytes), release: () => buffers.give(returned), unexpected };
  };
  /** The cost of a POST `here` declines: its body's size, else the cost it was declined at, else 0 (answered here). */
  const answerHere = async <A>(body: RequestBody, here: () => Promise<A>): Promise<{ answer: A } | { cost: number }> => {
    const cost = bodyCost(body);
    if (cost > 0) return { cost };
    try {
      return { answer: await here() };
    } catch (error) {
      if (error instanceof DecodeDeclined) return { cost: error.cost };
      throw error;
    }
  };
  const rest = (kind: 'create' | 'decode') => async (body: RequestBody, presence?: ClientPresence): Promise<RouteAnswer> => {
    const here = await answerHere(body, () => local.rest[kind](body));
    if ('answer' in here) return here.answer;
    const answer = await offload(kind, {}, body, here.cost, presence);
    if (answer === undefined) return { status: 0, headers: JSON_HEADERS, body: null };
    if ('failed' in answer) return { status: 500, headers: JSON_HEADERS, body: REST_INTERNAL_ERROR_BODY, unexpected: answer.failed };
    return { status: answer.status, headers: JSON_HEADERS, body: answer.body, release: answer.release, unexpected: answer.unexpected };
  };
  return {
    mcp: async (request, presence) => {
      const here = await answerHere(request.body, () => local.mcp(request));
      if ('answer' in here) return here.answer;
      const answer = await offload('mcp', request.headers, request.body, here.cost, presence);
      if (answer === undefined) return DEPARTED;
      if ('failed' in answer) return { status: 200, body: MCP_THREAD_FAILED_BODY, unexpected: answer.failed };
      return answer;
    },
    rest: { create: rest('create'), decode: rest('decode') },
  };
}
