// Request bodies for the HTTP benchmark: a ~3 KB plan and a ~2 MB plan wrapped in modern (2026-07-28) tools/call requests.
// Deterministic (seeded word generator), so every run and every server sees the same bytes.

const WORDS = (
  'agenda warm up check in energizer reflection retro breakout plenary lunch coffee break ' +
  'kickoff goals risks backlog review demo feedback round dot voting clustering canvas persona ' +
  'journey map prototype test share learnings next steps closing wrap up facilitator timebox ' +
  'silent brainstorming pairs groups gallery walk fishbowl world cafe open space decision matrix'
).split(' ');

/** Small linear congruential generator: deterministic pseudo-random text without a dependency. */
function words(seed: number, count: number): string {
  let x = seed >>> 0 || 1;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out.push(WORDS[(x >>> 8) % WORDS.length]!);
  }
  return out.join(' ');
}

function block(i: number, descriptionWords: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'block',
    id: `b${i}`,
    title: `Block ${i}: ${words(i, 3)}`,
    duration: 15 + (i % 4) * 5,
    blockTypeId: i % 2 === 0 ? 'input' : 'work',
    personIds: i % 3 === 0 ? ['p1', 'p2'] : ['p1'],
    description: words(i * 7 + 1, descriptionWords),
    notes: words(i * 11 + 3, 6),
    material: 'Flipchart, markers',
    fixedStartTime: null,
    laneIndex: 0,
    ...extra,
  };
}

function session(items: unknown[]): Record<string, unknown> {
  return {
    version: '1.0',
    workshop: { title: 'Team retrospective', description: 'Quarterly retro of the platform team.', date: '2026-03-12', startTime: '09:00' },
    blockTypes: [
      { id: 'input', name: 'Input', color: '#3366cc' },
      { id: 'work', name: 'Group work', color: '#33aa66' },
    ],
    persons: [
      { id: 'p1', name: 'Alex', role: 'Facilitator' },
      { id: 'p2', name: 'Sam', role: 'Co-facilitator' },
      { id: 'p3', name: 'Kim', role: 'Guest' },
    ],
    items,
  };
}

/** ~3 KB plan: blocks, a group with a block, a breakout with two lanes. */
export function smallPlan(): Record<string, unknown> {
  const items: unknown[] = [block(1, 6), block(2, 6), block(3, 6)];
  items.push({
    type: 'group', id: 'g1', title: 'Deep dive', duration: 60, description: words(91, 10), notes: '', fixedStartTime: '10:30',
    children: [block(4, 6)],
  });
  items.push({
    type: 'breakout', id: 'x1', title: 'Breakout rounds', duration: 45, description: words(92, 10), notes: '',
    fixedStartTime: null, lanes: 2, sameInAllBreakouts: false, lanePersons: { '0': ['p1'], '1': ['p2', 'p3'] },
    children: [block(5, 6, { laneIndex: 0 }), block(6, 6, { laneIndex: 1 })],
  });
  items.push(block(7, 6), block(8, 6));
  return session(items);
}

/** A plan of 500 top-level blocks whose descriptions are sized so the whole request body is just under `maxBodyBytes`. */
export function largePlan(maxBodyBytes: number): Record<string, unknown> {
  const probe = JSON.stringify(modernCreateRequest(session(Array.from({ length: 500 }, (_, i) => block(i + 1, 0))))).length;
  const perBlock = Math.floor((maxBodyBytes - probe - 1000) / 500);
  const items = Array.from({ length: 500 }, (_, i) => {
    const b = block(i + 1, 0);
    let text = words(i * 13 + 5, Math.ceil(perBlock / 5));
    text = text.slice(0, perBlock);
    return { ...b, description: text };
  });
  return session(items);
}

export const MODERN_VERSION = '2026-07-28';

/** A 2026-07-28 tools/call create_session_link request with the per-request `_meta` envelope. */
export function modernCreateRequest(plan: unknown, id = 1): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'create_session_link',
      arguments: { session: plan },
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
      },
    },
  };
}

/** The HTTP headers a 2026-07-28 client sends with that request. */
export const MODERN_CREATE_HEADERS: Record<string, string> = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
  'MCP-Protocol-Version': MODERN_VERSION,
  'Mcp-Method': 'tools/call',
  'Mcp-Name': 'create_session_link',
};
