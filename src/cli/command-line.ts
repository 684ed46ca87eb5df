// Reads the command line against a table of commands: program options, the command, its options and operands, usage texts.
import { parseArgs } from 'node:util';

const PROGRAM = 'sessionplan-mcp';

/** An option as node:util parseArgs declares it, with the line its help shows. */
export interface OptionSpec {
  readonly type: 'boolean' | 'string';
  readonly short?: string;
  /** e.g. 'print this help and exit'. */
  readonly help: string;
}

/** One command of the table: what its usage line and help say, how many operands it takes, and what it does. */
export interface CommandSpec {
  readonly name: string;
  /** Its operands as the usage line shows them, e.g. `<plan.json | ->`; empty for none. */
  readonly operands: string;
  readonly minOperands: number;
  readonly maxOperands: number;
  /** One line for the program's usage. */
  readonly summary: string;
  /** What `<command> --help` adds below its usage line: a few lines, without a trailing newline. */
  readonly details: string;
  /** Options besides -h/--help, which every command has. */
  readonly options?: Readonly<Record<string, OptionSpec>>;
  run(operands: readonly string[], options: Readonly<Record<string, string | boolean | undefined>>): Promise<void>;
}

/** What the command line asks for. */
export type Invocation =
  | { readonly kind: 'help'; readonly command?: CommandSpec }
  | { readonly kind: 'version' }
  | { readonly kind: 'run'; readonly command: CommandSpec; readonly operands: readonly string[]; readonly options: Readonly<Record<string, string | boolean | undefined>> };

/** A command line that cannot be run; the message is one line and points at the help. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const HELP: OptionSpec = { type: 'boolean', short: 'h', help: 'print this help and exit' };
const PROGRAM_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  help: { type: 'boolean', short: 'h', help: 'print this help and exit (after a command: that command\'s help)' },
  version: { type: 'boolean', short: 'v', help: 'print the version and exit' },
};

type Token = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];

/**
 * Tokens of `args` for `options`. Non-strict, so that an unknown option comes back as a token this module names in
 * its error instead of node's own message; unknown options never take the next argument as their value.
 */
function tokensOf(args: readonly string[], options: Readonly<Record<string, OptionSpec>>): Token[] {
  const declared = Object.fromEntries(Object.entries(options).map(([name, { type, short }]) => [name, short === undefined ? { type } : { type, short }]));
  return parseArgs({ args: [...args], options: declared, strict: false, allowPositionals: true, tokens: true }).tokens;
}

/** The option as typed, e.g. `--frobnicate` or `-x` (and the argument it came in when it was part of `-xyz`). */
function typed(token: Extract<Token, { kind: 'option' }>, args: readonly string[]): string {
  const argument = args[token.index];
  return argument !== undefined && argument !== token.rawName && !argument.startsWith('--') ? `${token.rawName} (in ${argument})` : token.rawName;
}

/** Checks one option token against the options in force; returns its name. */
function knownOption(token: Extract<Token, { kind: 'option' }>, args: readonly string[], options: Readonly<Record<string, OptionSpec>>, where: string): string {
  const spec = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
  if (spec === undefined) throw new UsageError(`unknown option ${typed(token, args)}${where}`);
  if (spec.type === 'boolean' && token.value !== undefined) throw new UsageError(`option ${token.rawName} takes no value${where}`);
  if (spec.type === 'string' && token.value === undefined) throw new UsageError(`option ${token.rawName} needs a value${where}`);
  return token.name;
}

/** Reads `args` (process.argv without node and the script) against `commands`. Throws UsageError. */
export function readCommandLine(args: readonly string[], commands: readonly CommandSpec[]): Invocation {
  // Up to the command's name the program's own options apply; after it, the command's.
  const programTokens = tokensOf(args, PROGRAM_OPTIONS);
  const wanted = new Set<string>();
  let commandAt = -1;
  for (const token of programTokens) {
    if (token.kind === 'positional') {
      commandAt = token.index;
      break;
    }
    if (token.kind === 'option-terminator') {
      commandAt = token.index + 1 < args.length ? token.index + 1 : -1;
      break;
    }
    wanted.add(knownOption(token, args, PROGRAM_OPTIONS, ` (see ${PROGRAM} --help)`));
  }
  const name = commandAt >= 0 ? args[commandAt] : undefined;
  const command = name === undefined ? undefined : commands.find((candidate) => candidate.name === name);
  if (name === 'help' && command === undefined) return helpFor(args.slice(commandAt + 1), commands);
  if (name !== undefined && command === undefined) throw new UsageError(`unknown command ${JSON.stringify(name)}; use ${commandList(commands)} (see ${PROGRAM} --help)`);
  if (wanted.has('help')) return command === undefined ? { kind: 'help' } : { kind: 'help', command };
  if (wanted.has('version')) return { kind: 'version' };
  if (command === undefined) throw new UsageError(`a command is required: ${commands.map(usageOf).join(', ')} (see ${PROGRAM} --help)`);

  const options = { help: HELP, ...command.options };
  const where = ` for ${command.name} (see ${PROGRAM} ${command.name} --help)`;
  const rest = args.slice(commandAt + 1);
  const operands: string[] = [];
  const values: Record<string, string | boolean | undefined> = {};
  for (const token of tokensOf(rest, options)) {
    if (token.kind === 'positional') operands.push(token.value);
    else if (token.kind === 'option') values[knownOption(token, rest, options, where)] = token.value ?? true;
  }
  if (values.help === true) return { kind: 'help', command };
  if (operands.length < command.minOperands || operands.length > command.maxOperands) {
    const count = operands.length === 0 ? 'no arguments' : `${operands.length} argument${operands.length === 1 ? '' : 's'}`;
    throw new UsageError(`wrong arguments for ${command.name} (got ${count}); usage: ${PROGRAM} ${usageOf(command)}`);
  }
  return { kind: 'run', command, operands, options: values };
}

/** `help` or `--help` followed by a name: that command's help, or the program's. */
function helpFor(rest: readonly string[], commands: readonly CommandSpec[]): Invocation {
  const command = commands.find((candidate) => candidate.name === rest[0]);
  if (rest[0] !== undefined && command === undefined) throw new UsageError(`unknown command ${JSON.stringify(rest[0])}; use ${commandList(commands)} (see ${PROGRAM} --help)`);
  return command === undefined ? { kind: 'help' } : { kind: 'help', command };
}

function commandList(commands: readonly CommandSpec[]): string {
  const names = commands.map((command) => command.name);
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

function usageOf(command: CommandSpec): string {
  return command.operands === '' ? command.name : `${command.name} ${command.operands}`;
}

function optionLines(options: Readonly<Record<string, OptionSpec>>): string[] {
  const rows = Object.entries(options).map(([name, spec]) => [`${spec.short === undefined ? '    ' : `-${spec.short}, `}--${name}${spec.type === 'string' ? ' <value>' : ''}`, spec.help] as const);
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, help]) => `  ${left.padEnd(width)}   ${help}`);
}

/** The program's usage: every command of the table on its own line, then the program's options and `footer`. */
export function programUsage(commands: readonly CommandSpec[], footer: string): string {
  const width = Math.max(...commands.map((command) => usageOf(command).length));
  return [
    `Usage: ${PROGRAM} <command> [arguments]`,
    '',
    'Commands:',
    ...commands.map((command) => `  ${usageOf(command).padEnd(width)}   ${command.summary}`),
    '',
    'Options:',
    ...optionLines(PROGRAM_OPTIONS),
    '',
    footer,
    '',
  ].join('\n');
}

/** One command's help: its usage line, what it does, its options. */
export function commandUsage(command: CommandSpec): string {
  return [`Usage: ${PROGRAM} ${usageOf(command)}`, '', command.details, '', 'Options:', ...optionLines({ help: HELP, ...command.options }), ''].join('\n');
}
