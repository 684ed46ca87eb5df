// Every limit of a request and its connection, declared once: value, unit, the setting that moves it, where it is checked, its docs row.

/** How a limit's value is counted. `s` and `ms` are durations; `share` is a fraction of another limit. */
export type LimitUnit = 'bytes' | 'bytes/s' | 'count' | 'ms' | 's' | 'share';

export interface Limit {
  readonly value: number;
  readonly unit: LimitUnit;
  /** The environment variable that sets it; `value` is then its default. */
  readonly setting?: string;
  /** The file under src/ that enforces it. */
  readonly checkedIn: string;
  /**
   * Its row of the limits table in docs/http-api.md: what is limited, the value's wording when the unit alone cannot say
   * it (`{}` stands for the value as formatLimit writes it), and
   * what a request past it gets; `uws` says what TRANSPORT=uws does instead where that adapter cannot apply the limit.
   * Without a row, the value is stated in that document's prose (the docs test checks it).
   */
  readonly docs?: { readonly limit: string; readonly value?: string; readonly beyond: string; readonly uws?: string };
}

const KB = 1024;
const MB = 1024 * KB;
/** A client's share of MAX_CONNECTIONS: this fraction, at least CONNECTIONS_PER_CLIENT_MIN. */
export const CONNECTIONS_PER_CLIENT = { divisor: 50, min: 10 } as const;
const MAX_CONNECTIONS = 10_000;
const BUSY_RETRY_AFTER_S = 2;

/** The limits, in the order of their rows in docs/http-api.md. */
export const LIMITS = {
  headBytes: {
    value: 16 * KB,
    unit: 'bytes',
    checkedIn: 'transport/node-http.ts',
    docs: { limit: 'request head', beyond: '431 `{"error":"Request header fields too large"}`', uws: '4 KB when the head arrives in several reads, none in one; beyond, the socket is closed without an answer' },
  },
  headLines: {
    value: 100,
    unit: 'count',
    checkedIn: 'http/head.ts',
    docs: { limit: 'header lines in a request head', beyond: '431 `{"error":"Request header fields too large"}`', uws: 'past about 48 lines the socket is closed without an answer after ~9 s' },
  },
  /** The whole head must arrive within this long (slowloris). */
  headDeadline: {
    value: 10_000,
    unit: 'ms',
    checkedIn: 'transport/node-http.ts',
    docs: { limit: 'head arrives within', beyond: 'connection closed (408 when it is still writable)', uws: '~8–11 s, closed without an answer' },
  },
  /** …and the whole request, body included (a 2 MB body at 16 KB/s, uWS's slowest accepted rate, takes about 2 minutes). */
  requestDeadline: {
    value: 60_000,
    unit: 'ms',
    checkedIn: 'transport/node-http.ts',
    docs: { limit: 'whole request within', beyond: '408, connection closed', uws: 'none; a body slower than 16 KB/s is cut by uWS itself' },
  },
  idleTimeout: {
    value: 10,
    unit: 's',
    setting: 'IDLE_TIMEOUT_S',
    checkedIn: 'server/connection-limits.ts',
    docs: { limit: 'idle keep-alive connection, or one that never sends', beyond: 'closed', uws: 'fixed ~8–11 s: only `IDLE_TIMEOUT_S=10` is accepted' },
  },
  connections: {
    value: MAX_CONNECTIONS,
    unit: 'count',
    setting: 'MAX_CONNECTIONS',
    checkedIn: 'server/connection-limits.ts',
    docs: { limit: 'connections per process', beyond: 'new connections closed at once; open ones are served', uws: 'no cap: only `MAX_CONNECTIONS=0` is accepted' },
  },
  connectionsPerClient: {
    value: Math.max(CONNECTIONS_PER_CLIENT.min, Math.floor(MAX_CONNECTIONS / CONNECTIONS_PER_CLIENT.divisor)),
    unit: 'count',
    setting: 'MAX_CONNECTIONS_PER_CLIENT',
    checkedIn: 'server/connection-limits.ts',
    docs: {
      limit: 'connections per client address (an IPv6 /64)',
      value: `\`MAX_CONNECTIONS\` ÷ ${CONNECTIONS_PER_CLIENT.divisor}, at least ${CONNECTIONS_PER_CLIENT.min}; none behind a proxy`,
      beyond: "that address's new connections closed at once",
      uws: 'no cap: only `MAX_CONNECTIONS_PER_CLIENT=0` is accepted',
    },
  },
  /** From this share of MAX_CONNECTIONS on, connections that have not sent a whole request get the short deadline… */
  pressureShare: {
    value: 0.75,
    unit: 'share',
    checkedIn: 'transport/connection-guard.ts',
    docs: { limit: 'open connections from which the short head deadline below applies', value: '{} of `MAX_CONNECTIONS`', beyond: 'see the next row', uws: 'none' },
  },
  /** …which is this long from their connect (the usual one is the head deadline). */
  pressureHeadDeadline: {
    value: 2_000,
    unit: 'ms',
    checkedIn: 'transport/connection-guard.ts',
    docs: { limit: 'a connection that has not sent a whole request yet, near the cap', value: '{} from its connect', beyond: 'closed', uws: 'none' },
  },
  /**
   * After an answer that closes the connection, the socket is destroyed this long after the answer was sent, whatever the
   * client does: one that keeps trickling bytes would otherwise keep a half-closed socket, and a place under the cap.
   */
  closeLinger: {
    value: 1_000,
    unit: 'ms',
    checkedIn: 'transport/node-http.ts',
    docs: { limit: 'after an answer that closes the connection (a refused head, 408)', value: 'the socket is destroyed {} later', beyond: 'whatever the client still sends', uws: 'closed once the answer is sent' },
  },
  /** The longest JSON-RPC message or REST body: an HTTP body (413 while streaming) or a stdio line (dropped as it arrives). */
  requestBody: {
    value: 2_000_000,
    unit: 'bytes',
    checkedIn: 'server/start-server.ts, process/stdio-main.ts',
    docs: { limit: 'request body (a stdio message: one line)', beyond: '413 `-32600`, drained as below' },
  },
  /** A body answered before it ended is read and dropped up to this many bytes (declared or counted), so the client reads the answer… */
  drainBytes: {
    value: 16 * MB,
    unit: 'bytes',
    checkedIn: 'http/request-cycle.ts',
    docs: { limit: 'the rest of a body answered early, read and dropped', beyond: 'connection cut' },
  },
  /** …and for at most this long after the answer; beyond either, the connection is cut. */
  drainTimeout: {
    value: 5_000,
    unit: 'ms',
    checkedIn: 'http/request-cycle.ts',
    docs: { limit: '…and for at most', beyond: 'connection cut' },
  },
  /**
   * Body bytes held per server while their bodies arrive: sixteen full-size bodies. Without a cap, 500 clients each
   * sending 1.9 MB and stalling held about a gigabyte of memory.
   */
  receivingBytes: {
    value: 32 * MB,
    unit: 'bytes',
    checkedIn: 'http/reception.ts',
    docs: { limit: 'bodies being received by a server, counted as the bytes arrive', beyond: `429 \`Retry-After: ${BUSY_RETRY_AFTER_S}\`, connection closed` },
  },
  /** …and per client (four full-size bodies), so that one client cannot take the whole budget. */
  clientReceivingBytes: {
    value: 8 * MB,
    unit: 'bytes',
    checkedIn: 'http/reception.ts',
    docs: { limit: 'bodies being received from one client', beyond: `429 \`Retry-After: ${BUSY_RETRY_AFTER_S}\`, the rest read and dropped` },
  },
  /** An upload must arrive at this average rate once past its grace, else it is cut: a trickled body costs its sender nothing. */
  uploadRate: {
    value: KB,
    unit: 'bytes/s',
    checkedIn: 'http/reception.ts',
    docs: { limit: 'upload rate, on average', beyond: '408, connection closed' },
  },
  uploadGrace: {
    value: 5_000,
    unit: 'ms',
    checkedIn: 'http/reception.ts',
    docs: { limit: '…from this long after the head', beyond: '408, connection closed' },
  },
  /**
   * A request body nests at most this deep (a decoded document may nest 64 levels, and an envelope adds a few), and no
   * object in it has more members than the next limit: JSON.parse of more holds its thread far longer than the size says.
   */
  requestDepth: {
    value: 100,
    unit: 'count',
    checkedIn: 'http/body-guard.ts',
    docs: { limit: 'nesting of a JSON body', value: '{} levels', beyond: '`/mcp`: 200 `-32600`; REST: 400' },
  },
  requestObjectMembers: {
    value: 10_000,
    unit: 'count',
    checkedIn: 'http/body-guard.ts',
    docs: { limit: 'members of one object in a JSON body', beyond: '`/mcp`: 200 `-32600`; REST: 400' },
  },
  /**
   * Answer bytes one connection may leave unread: one answer of the largest kind (an MCP decode, ~6 MB) fits. A server
   * holds at most the next limit, about five such answers.
   */
  connectionBacklog: {
    value: 8 * MB,
    unit: 'bytes',
    checkedIn: 'http/answer-backlog.ts',
    docs: { limit: 'answer bytes a reader leaves unread, per connection', beyond: 'the connections whose readers took nothing for the longest are closed (`sessionplan_slow_reader_closes_total`)' },
  },
  serverBacklog: {
    value: 32 * MB,
    unit: 'bytes',
    checkedIn: 'http/answer-backlog.ts',
    docs: { limit: '…per server', beyond: 'as above' },
  },
  /**
   * Bodies from this size on cost more than a few ms to parse, check and answer: they are assembled in one pooled buffer
   * and go to an offload thread as bytes. Below it, a create costs less than the hand-over would save.
   */
  heavyBody: {
    value: 64 * KB,
    unit: 'bytes',
    checkedIn: 'offload/cost.ts',
  },
  /** Heavy POSTs one client (its rate-limit key) may have waiting, whatever the threads. */
  queuedJobsPerClient: {
    value: 8,
    unit: 'count',
    checkedIn: 'offload/pool.ts',
    docs: { limit: 'heavy POSTs waiting, per client', beyond: `429 \`Retry-After: ${BUSY_RETRY_AFTER_S}\`` },
  },
  /**
   * Heavy POSTs waiting per thread, and the bytes of their bodies (sixteen bodies at the cap): a flood of large requests
   * costs bounded memory and a bounded wait instead of a queue that grows with the flood.
   */
  queuedJobsPerThread: {
    value: 64,
    unit: 'count',
    checkedIn: 'offload/pool.ts',
    docs: { limit: 'heavy POSTs waiting, per offload thread', beyond: `429 \`Retry-After: ${BUSY_RETRY_AFTER_S}\` (\`SERVER_BUSY\`)` },
  },
  queuedBytesPerThread: {
    value: 32 * MB,
    unit: 'bytes',
    checkedIn: 'offload/pool.ts',
    docs: { limit: 'their bodies, per offload thread', beyond: `429 \`Retry-After: ${BUSY_RETRY_AFTER_S}\` (\`SERVER_BUSY\`)` },
  },
  /** Retry-After of a 429 for a body or job the server has no room for now: a queue of full-size jobs drains in about this long. */
  busyRetryAfter: {
    value: BUSY_RETRY_AFTER_S,
    unit: 's',
    checkedIn: 'http/core.ts, offload/pool.ts',
  },
  /** The JSON text of a session document, in UTF-8 (docs/import-guide.md, "Limits"). */
  sessionJsonBytes: {
    value: 2_000_000,
    unit: 'bytes',
    checkedIn: 'session/json-size.ts',
  },
} as const satisfies Record<string, Limit>;

export type LimitName = keyof typeof LIMITS;
