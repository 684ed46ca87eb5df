// server.json, the MCP Registry's description of this server: the registry's rules for a server (reverse-DNS name,
// short description, exact versions, the remote and the npm package) and agreement with package.json and the defaults.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';

const read = (file: string): any => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));
const server = read('server.json');
const pkg = read('package.json');
/** A version range, or `latest`, which the registry refuses for a server or a package. */
const RANGE = /^(latest|[~^<>=*]|.*\s|.*\.(x|\*)(\.|$))/;

describe('server.json', () => {
  it('follows the registry schema’s rules for a server', () => {
    expect(server.$schema).toMatch(/^https:\/\/static\.modelcontextprotocol\.io\/schemas\/\d{4}-\d{2}-\d{2}\/server\.schema\.json$/);
    expect(server.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(server.description.length).toBeGreaterThan(0);
    expect(server.description.length).toBeLessThanOrEqual(100);
    expect(server.version).not.toMatch(RANGE);
    expect(new URL(server.websiteUrl).protocol).toBe('https:');
    for (const remote of server.remotes) {
      expect(remote.type).toBe('streamable-http');
      expect(new URL(remote.url).protocol).toBe('https:');
    }
    for (const pack of server.packages) {
      expect(Object.keys(pack).filter((key) => !['registryType', 'identifier', 'version', 'runtimeHint', 'transport', 'packageArguments', 'runtimeArguments', 'environmentVariables', 'registryBaseUrl'].includes(key))).toEqual([]);
      expect(pack.registryType).toBe('npm');
      expect(pack.version).not.toMatch(RANGE);
      expect(['stdio', 'streamable-http', 'sse']).toContain(pack.transport.type);
      for (const argument of pack.packageArguments ?? []) expect(argument.type === 'positional' ? argument.value ?? argument.valueHint : argument.name).toBeTruthy();
      for (const variable of pack.environmentVariables ?? []) expect(typeof variable.name).toBe('string');
    }
  });

  it('names what package.json and the server say: mcpName, package, version, the remote endpoint, the stdio command', () => {
    expect(server.name).toBe(pkg.mcpName);
    expect(server.version).toBe(pkg.version);
    expect(server.packages[0].identifier).toBe(pkg.name);
    expect(server.packages[0].version).toBe(pkg.version);
    expect(server.packages[0].packageArguments).toEqual([{ type: 'positional', value: 'stdio' }]);
    expect(server.remotes[0].url).toBe(`${loadConfig({}).publicBaseUrl}mcp`);
    expect(pkg.files).toContain('server.json');
  });
});
