// The CLI as a real subprocess (`node dist/cli.js`, built by `npm run build`): encode, decode, stdin, one-line errors, exit status.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import LZString from 'lz-string';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateForCreate } from '../../src/session/validate.js';
import { block, planOfSize, richSession } from '../fixtures/sessions.js';
import { CLI, cli, collectRun } from '../support/cli.js';
import type { CliRun } from '../support/cli.js';


let dir = '';
let planFile = '';
const plan = richSession();
/** Stands for the plan file in test tables (its path is known only once beforeAll ran). */
const planFileArgument = '<plan file>';

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (the CLI is tested as built)`);
  dir = await mkdtemp(join(tmpdir(), 'sessionplan-cli-'));
  planFile = join(dir, 'plan.json');
  await writeFile(planFile, JSON.stringify(plan, null, 2));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** An error run: status 1, nothing on stdout, exactly one line on stderr. */
function expectOneLineError(run: CliRun, pattern: RegExp): void {
  expect(run.status).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr.endsWith('\n')).toBe(true);
  expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(run.stderr).toMatch(pattern);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

describe('sessionplan-mcp CLI', () => {
  it('encode <file> prints the link: lz-string of the normalized JSON on the default base URL', async () => {
    const run = await cli(['encode', planFile]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const expected = `https://sessionplan.de/#data=v2:${LZString.compressToEncodedURIComponent(validateForCreate(plan).json)}`;
    expect(run.stdout).toBe(`${expected}\n`);
  });

  it('encode - reads stdin (a leading BOM is ignored); PUBLIC_BASE_URL sets the base', async () => {
    const run = await cli(['encode', '-'], { stdin: `\uFEFF${JSON.stringify(plan)}`, env: { PUBLIC_BASE_URL: 'http://localhost:9000' } });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^http:\/\/localhost:9000\/#data=v2:[A-Za-z0-9+\-$]+\n$/);
  });

  it("decode '<link>' prints the document as pretty JSON; decode - reads the link from stdin", async () => {
    const link = (await cli(['encode', planFile])).stdout.trim();
    const direct = await cli(['decode', link]);
    expect(direct.status).toBe(0);
    expect(direct.stderr).toBe('');
    expect(direct.stdout).toBe(`${JSON.stringify(JSON.parse(validateForCreate(plan).json), null, 2)}\n`);
    const piped = await cli(['decode', '-'], { stdin: `${link}\n` });
    expect(piped.stdout).toBe(direct.stdout);
  });

  it('decode prints warnings of older documents on stderr and still succeeds', async () => {
    const old = { workshop: { title: 'Old' }, items: [block('a', { blockTypeId: 'gone' })] };
    const run = await cli(['decode', `v2:${LZString.compressToEncodedURIComponent(JSON.stringify(old))}`]);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('warning: items[0].blockTypeId: block type "gone" is not declared in blockTypes\n');
    expect((JSON.parse(run.stdout) as { version: string }).version).toBe('1.0');
  });

  it('an invalid document: the validation error with its field path, exit 1', async () => {
    const bad = { ...plan, items: [block('a', { laneIndex: 2 })] };
    expectOneLineError(await cli(['encode', '-'], { stdin: JSON.stringify(bad) }), /^SESSION_VALIDATION_FAILED: items\[0\]\.laneIndex: must be 0 outside a breakout, not 2\.\n$/);
  });

  it('input that is not JSON', async () => {
    expectOneLineError(await cli(['encode', '-'], { stdin: '{"version": ' }), /^SESSION_VALIDATION_FAILED: session: stdin is not valid JSON \(/);
  });

  it('links that hold no v2 snapshot, each named for what it is, as the API names them', async () => {
    expectOneLineError(await cli(['decode', 'https://sessionplan.de/s/abc']), /^SESSION_DECODE_FAILED: link: is a dynamic server link \(\/s\/…\), .*supply a #data=v2:\.\.\. snapshot link instead\.\n$/);
    expectOneLineError(await cli(['decode', 'https://example.com/page']), /^SESSION_DECODE_FAILED: link: holds no snapshot: the address has no #data=v2: fragment; /);
    expectOneLineError(await cli(['decode', 'v3:N4IgzgpgTg']), /^SESSION_DECODE_FAILED: link: is a snapshot of a newer format \("v3:"\) than this server reads/);
    expectOneLineError(await cli(['decode', 'v1:N4IgzgpgTg']), /^SESSION_DECODE_FAILED: link: is a legacy pre-v2 snapshot code \("v1:"\)/);
  });

  it('a missing file', async () => {
    expectOneLineError(await cli(['encode', join(dir, 'missing.json')]), /^error: cannot read the session document from .*missing\.json \(ENOENT\)\n$/);
  });

  it('a bad PUBLIC_BASE_URL', async () => {
    expectOneLineError(await cli(['encode', planFile], { env: { PUBLIC_BASE_URL: 'ftp://example.org' } }), /PUBLIC_BASE_URL must be an absolute http\(s\) URL/);
  });

  it.each([
    [[], /^error: a command is required: encode <plan\.json \| ->, decode <link \| ->, serve, stdio \(see sessionplan-mcp --help\)\n$/],
    [['frobnicate'], /^error: unknown command "frobnicate"; use encode, decode, serve or stdio \(see sessionplan-mcp --help\)\n$/],
    [['encode'], /^error: wrong arguments for encode \(got no arguments\); usage: sessionplan-mcp encode <plan\.json \| ->\n$/],
    [['decode', 'a', 'b'], /^error: wrong arguments for decode \(got 2 arguments\); usage: sessionplan-mcp decode <link \| ->\n$/],
    [['serve', 'now'], /^error: wrong arguments for serve \(got 1 argument\); usage: sessionplan-mcp serve\n$/],
    [['stdio', 'now'], /^error: wrong arguments for stdio \(got 1 argument\); usage: sessionplan-mcp stdio\n$/],
  ])('usage errors: %j', async (args, message) => {
    expectOneLineError(await cli(args), message);
  });

  it('a reader that stops early (`| head -c 10`) ends decode quietly, without an EPIPE stack trace', async () => {
    const link = `v2:${LZString.compressToEncodedURIComponent(validateForCreate(planOfSize(150_000)).json)}`;
    // A real shell pipe: head exits after 10 bytes while the CLI is still writing ~300 KB of JSON.
    const run = await collectRun(spawn('bash', ['-c', 'set -o pipefail; "$0" "$1" decode "$2" | head -c 10', process.execPath, CLI, link], { timeout: 30_000 }));
    expect(run.stdout).toBe('{\n  "versi');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('--help and -h print the program usage on stdout with every command of the table, exit 0', async () => {
    for (const flag of ['--help', '-h']) {
      const run = await cli([flag]);
      expect([run.status, run.stderr]).toEqual([0, '']);
      expect(run.stdout).toMatch(/^Usage: sessionplan-mcp <command> \[arguments\]\n/);
      expect(run.stdout).toContain('  encode <plan.json | ->   print the snapshot link');
      expect(run.stdout).toContain('  decode <link | ->        print the session document');
      expect(run.stdout).toContain('  serve                    start the MCP endpoint');
      expect(run.stdout).toContain('-v, --version');
    }
  });

  it('--version and -v print the package version, exit 0', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) expect(await cli([flag])).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' });
  });

  it.each([
    [['encode', '--help'], 'Usage: sessionplan-mcp encode <plan.json | ->\n'],
    [['encode', '-h'], 'Usage: sessionplan-mcp encode <plan.json | ->\n'],
    [['encode', planFileArgument, '--help'], 'Usage: sessionplan-mcp encode <plan.json | ->\n'],
    [['decode', '--help'], 'Usage: sessionplan-mcp decode <link | ->\n'],
    [['serve', '--help'], 'Usage: sessionplan-mcp serve\n'],
    [['--help', 'serve'], 'Usage: sessionplan-mcp serve\n'],
    [['stdio', '--help'], 'Usage: sessionplan-mcp stdio\n'],
    [['help', 'decode'], 'Usage: sessionplan-mcp decode <link | ->\n'],
  ])("%j prints that command's usage, not a file's contents or a server, exit 0", async (args, usageLine) => {
    const run = await cli(args.map((arg) => (arg === planFileArgument ? planFile : arg)));
    expect([run.status, run.stderr]).toEqual([0, '']);
    expect(run.stdout.startsWith(usageLine)).toBe(true);
    expect(run.stdout).toMatch(/\nOptions:\n {2}-h, --help +print this help and exit\n$/);
  });

  it.each([
    [['encode', '--frobnicate', 'plan.json'], /^error: unknown option --frobnicate for encode \(see sessionplan-mcp encode --help\)\n$/],
    [['encode', '-x'], /^error: unknown option -x for encode /],
    [['decode', '-qv', 'v2:abc'], /^error: unknown option -q \(in -qv\) for decode /],
    [['serve', '--port=8080'], /^error: unknown option --port for serve \(see sessionplan-mcp serve --help\)\n$/],
    [['--verbose', 'encode', 'plan.json'], /^error: unknown option --verbose \(see sessionplan-mcp --help\)\n$/],
    [['--help=yes'], /^error: option --help takes no value /],
    [['encode', '-v'], /^error: unknown option -v for encode /],
    [['help', 'frobnicate'], /^error: unknown command "frobnicate"; use encode, decode, serve or stdio /],
  ])('unknown options are errors that name the option: %j', async (args, message) => {
    expectOneLineError(await cli(args), message);
  });

  it('-- ends the options: what follows is an operand, - still means stdin', async () => {
    const run = await cli(['encode', '--', '-'], { stdin: JSON.stringify(plan) });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^https:\/\/sessionplan\.de\/#data=v2:/);
    expectOneLineError(await cli(['encode', '--', '--help']), /^error: cannot read the session document from --help \(ENOENT\)\n$/);
  });
});
