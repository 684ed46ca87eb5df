// The health answer of GET /mcp: the server's identity, its adapter, the rate-limit store's state, and `ok` or `degraded`.
import { mcpHealth } from '../mcp/handler.js';
import type { McpServerIdentity } from '../mcp/handler.js';
import type { RateLimitStoreHealth } from '../rate-limit/store.js';

/**
 * `degraded` while the rate-limit store cannot count: every POST is then answered 503 (the limiter fails closed),
 * while GETs, the viewer and this answer still work. Its HTTP status stays 200, so a load balancer keeps the instance
 * in rotation: with a shared store down every instance is equally degraded, and taking them all out serves nobody
 * (docs/deployment.md, "Health checks").
 */
export type HealthStatus = 'ok' | 'degraded';

/**
 * A function that gives the health JSON of this moment. Each combination of store kind and state is serialised once
 * and kept, so a health check costs one read of the store's state and no JSON.stringify.
 */
export function createHealthJson(
  identity: McpServerIdentity,
  transport: { readonly name: string; readonly version: string },
  storeHealth: () => RateLimitStoreHealth,
): () => string {
  const texts = new Map<string, string>();
  return () => {
    const store = storeHealth();
    const key = `${store.kind} ${store.state}`;
    let text = texts.get(key);
    if (text === undefined) {
      const status: HealthStatus = store.state === 'up' ? 'ok' : 'degraded';
      text = JSON.stringify({
        ...mcpHealth(identity, status),
        transport: { adapter: transport.name, version: transport.version },
        rateLimitStore: { kind: store.kind, state: store.state },
      });
      texts.set(key, text);
    }
    return text;
  };
}
