import { parseArgs } from 'node:util';
import type { AdminServices } from './context.js';

/** Bad arguments: exit code 2. Thrown before the database is opened wherever the check needs no data. */
export class UsageError extends Error {}

/** An operation that could not be done (a plan that does not exist, an order in the wrong status): exit code 1. */
export class CommandError extends Error {}

/** A flag of a command: one that takes a value, or a switch (`--hidden`); `--json` and `--help` are common to all. */
export type FlagSpec = {
  /** Placeholder shown in the usage line: `TEXT`, `N`, `traffic|durational`; empty for a switch. */
  value: string;
  help: string;
  required?: boolean;
  /** May be given more than once (`--price`); any other flag only once. */
  multiple?: boolean;
  /** A switch: present or not, it takes no value. */
  switch?: boolean;
};

/** The command line of one command, as parseArgs read it. */
export type Parsed = {
  positionals: string[];
  flags: Record<string, string | string[] | boolean | undefined>;
  json: boolean;
};

/** What a command prints: `json` with `--json`, `text` otherwise. */
export type Output = { json: unknown; text: string };

export interface Command<Input = unknown> {
  summary: string;
  /** Positional arguments by name (`ID`, `NO`, `CODE`), all required. */
  args?: string[];
  flags?: Record<string, FlagSpec>;
  example: string;
  /** Checks the arguments without the database; a bad one throws UsageError. */
  parse(parsed: Parsed): Input;
  run(input: Input, services: AdminServices): Promise<Output>;
}

/** The verbs of one noun (`plan`: add, list, …). */
export type Noun = {
  summary: string;
  verbs: Record<string, Command>;
  /** The verb meant when the word after the noun is none of its verbs: `backup FILE` is `backup create FILE`. */
  defaultVerb?: string;
};

/** Declares a command, tying the type its `parse` returns to what its `run` takes. */
export function command<Input>(definition: Command<Input>): Command {
  return definition as Command;
}

/** parseArgs's own messages name the API ("positional argument", "-- \"--x\""); these speak to the operator. */
function usageMessage(error: unknown): string {
  const { code, message } = error as { code?: string; message: string };
  const flag = /'(-[^' ]+)/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown flag ${flag}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (message.includes('does not take an argument')) return `${flag} takes no value`;
    if (message.includes('ambiguous')) return `${flag} needs a value (write ${flag}=-1 for one that starts with "-")`;
    return `${flag} needs a value`;
  }
  return message.split('\n')[0] ?? message;
}

/** Reads a command's arguments: unknown flags, repeated single flags, missing values, flags and arguments. */
export function parseCommandLine(spec: Command, argv: string[]): Parsed {
  const flags = spec.flags ?? {};
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = { json: { type: 'boolean' } };
  for (const [name, flag] of Object.entries(flags))
    options[name] = flag.switch ? { type: 'boolean' } : { type: 'string', multiple: Boolean(flag.multiple) };
  const read = () => parseArgs({ args: argv, options, allowPositionals: true, strict: true, tokens: true });
  let result: ReturnType<typeof read>;
  try {
    result = read();
  } catch (error) {
    throw new UsageError(usageMessage(error));
  }
  const seen = new Set<string>();
  for (const token of result.tokens) {
    if (token.kind !== 'option') continue;
    if (seen.has(token.name) && !flags[token.name]?.multiple) throw new UsageError(`--${token.name} is given twice`);
    seen.add(token.name);
  }
  for (const [name, flag] of Object.entries(flags)) {
    if (flag.required && result.values[name] === undefined) throw new UsageError(`--${name} is required`);
  }
  const names = spec.args ?? [];
  const missing = names[result.positionals.length];
  if (missing) throw new UsageError(`missing ${missing}`);
  const extra = result.positionals[names.length];
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
  const { json, ...values } = result.values;
  return {
    positionals: result.positionals,
    flags: values as Parsed['flags'],
    json: json === true,
  };
}

// Value checks, each naming what it checked in its message.

/** A single-valued flag's value, or undefined when it is not given. */
export function flag(parsed: Parsed, name: string): string | undefined {
  const value = parsed.flags[name];
  if (typeof value === 'boolean') return undefined;
  return Array.isArray(value) ? value.at(-1) : value;
}

/** Every value of a flag that may be repeated. */
export function flags(parsed: Parsed, name: string): string[] {
  const value = parsed.flags[name];
  if (typeof value === 'boolean') return [];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** Whether a switch (`--hidden`) is given. */
export function given(parsed: Parsed, name: string): boolean {
  return parsed.flags[name] === true;
}

/** Text that must not be blank, and at most `max` characters. */
export function text(value: string, what: string, max = 10_000): string {
  if (value.trim() === '') throw new UsageError(`${what} must not be empty`);
  if ([...value].length > max) throw new UsageError(`${what} must be at most ${max} characters`);
  return value;
}

/** A whole number within bounds, written in digits. */
export function integer(value: string, what: string, min: number, max: number): number {
  const number = /^-?\d{1,16}$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    throw new UsageError(`bad ${what} "${value}": must be a whole number from ${min} to ${max}`);
  }
  return number;
}

/** Ids are positive 32-bit integers on both databases. */
export const MAX_ID = 2_147_483_647;

export function id(value: string, what: string): number {
  return integer(value, what, 1, MAX_ID);
}

export function oneOf<T extends string>(value: string, what: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(value)) throw new UsageError(`${what} must be ${orList(choices)}`);
  return value as T;
}

export function orList(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** An ISO 4217 code: three letters, kept in capitals. */
export function currencyCode(value: string): string {
  if (!/^[A-Za-z]{3}$/.test(value)) throw new UsageError(`bad currency code "${value}": must be three letters, as USD`);
  return value.toUpperCase();
}
