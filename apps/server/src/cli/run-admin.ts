import { MESSAGES } from '@mutenet/contract';
import { AppError } from '../lib/app-error.js';
import { ConfigError, loadConfig } from '../plugins/external/env.js';
import {
  type Command,
  CommandError,
  type FlagSpec,
  type Noun,
  orList,
  parseCommandLine,
  UsageError,
} from './command.js';
import { COMMANDS } from './commands/index.js';

export type Io = { out(text: string): void; err(text: string): void };

/** Exit statuses: done, the operation failed, bad arguments, bad configuration (as the server's). */
export const EXIT = { ok: 0, failed: 1, usage: 2, config: 78 } as const;

const GENERAL = `Mutenet admin: works on the database of DATABASE_URL (default sqlite:./data/mutenet.db) with the server's
environment variables, and applies pending migrations first.

Usage: npm run admin -- <noun> <verb> [arguments] [--json]
       npm run admin -- help | <noun> --help | <noun> <verb> --help

--json prints one JSON document on standard output instead of text.
Exit status: 0 done, 1 the operation failed, 2 bad arguments, 78 bad configuration.`;

function flagUsage(name: string, flag: FlagSpec): string {
  const part = flag.switch ? `--${name}` : `--${name} ${flag.value}${flag.multiple ? ' …' : ''}`;
  return flag.required ? part : `[${part}]`;
}

function commandHelp(noun: string, verb: string, spec: Command): string {
  const flags = Object.entries(spec.flags ?? {});
  const usage = [
    `admin ${noun} ${verb}`,
    ...(spec.args ?? []),
    ...flags.map(([name, f]) => flagUsage(name, f)),
    '[--json]',
  ];
  const written = (name: string, f: FlagSpec) => (f.switch ? `--${name}` : `--${name} ${f.value}`);
  const width = Math.max(0, ...flags.map(([name, f]) => written(name, f).length));
  return [
    usage.join(' '),
    `    ${spec.summary}`,
    ...flags.map(([name, f]) => `      ${written(name, f).padEnd(width)}  ${f.help}`),
    `    e.g. ${spec.example}`,
  ].join('\n');
}

function nounHelp(noun: string, { summary, verbs }: Noun): string {
  return [`${noun}: ${summary}`, ...Object.entries(verbs).map(([verb, spec]) => commandHelp(noun, verb, spec))].join(
    '\n\n',
  );
}

export function fullHelp(): string {
  return [GENERAL, ...Object.entries(COMMANDS).map(([noun, spec]) => nounHelp(noun, spec))].join('\n\n');
}

const isHelp = (arg: string | undefined) => arg === 'help' || arg === '--help' || arg === '-h';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs one command line of `admin <noun> <verb> [flags]`; returns the exit status. Every failure is one line on
 * `err`. The database is opened only once the arguments have passed, and closed before it returns. The
 * configuration comes from `environment`, or from the process's when it is not given.
 */
export async function runAdmin(argv: string[], io: Io, environment?: NodeJS.ProcessEnv): Promise<number> {
  const fail = (status: number, message: string, hint?: string) => {
    io.err(`admin: ${message}${hint ? ` (see: ${hint})` : ''}\n`);
    return status;
  };
  const [noun, given, ...more] = argv;
  if (noun === undefined) {
    io.err(`${GENERAL}\n\nNouns: ${Object.keys(COMMANDS).join(', ')}.\n`);
    return EXIT.usage;
  }
  if (isHelp(noun)) {
    io.out(`${fullHelp()}\n`);
    return EXIT.ok;
  }
  const nounSpec = Object.hasOwn(COMMANDS, noun) ? COMMANDS[noun] : undefined;
  if (!nounSpec) {
    return fail(EXIT.usage, `unknown command "${noun}": use ${orList(Object.keys(COMMANDS))}`, 'admin help');
  }
  // `backup FILE`: a word that is no verb (nor a flag) is the first argument of the noun's default verb.
  const implied =
    nounSpec.defaultVerb !== undefined &&
    given !== undefined &&
    !given.startsWith('-') &&
    !Object.hasOwn(nounSpec.verbs, given);
  const verb = implied ? nounSpec.defaultVerb : given;
  const rest = implied && given !== undefined ? [given, ...more] : more;
  if (verb === undefined || isHelp(verb)) {
    if (verb === undefined) return fail(EXIT.usage, `${noun} needs a verb: ${orList(Object.keys(nounSpec.verbs))}`);
    io.out(`${nounHelp(noun, nounSpec)}\n`);
    return EXIT.ok;
  }
  const spec = Object.hasOwn(nounSpec.verbs, verb) ? nounSpec.verbs[verb] : undefined;
  if (!spec) {
    return fail(
      EXIT.usage,
      `unknown verb "${verb}" for ${noun}: use ${orList(Object.keys(nounSpec.verbs))}`,
      `admin ${noun} --help`,
    );
  }
  const hint = `admin ${noun} ${verb} --help`;
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(`${commandHelp(noun, verb, spec)}\n`);
    return EXIT.ok;
  }

  // Arguments are checked before the database is opened: a bad command line changes nothing.
  let json: boolean;
  let input: unknown;
  try {
    const parsed = parseCommandLine(spec, rest);
    json = parsed.json;
    input = spec.parse(parsed);
  } catch (error) {
    if (error instanceof UsageError) return fail(EXIT.usage, error.message, hint);
    throw error;
  }

  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(environment);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const [, ...issues] = error.message.split('\n');
    return fail(EXIT.config, `invalid configuration: ${issues.map((issue) => issue.trim()).join('; ')}`);
  }
  // Loaded only now: a command line refused above need not load the database drivers.
  const { openAdminContext } = await import('./context.js');
  let context: Awaited<ReturnType<typeof openAdminContext>>;
  try {
    context = await openAdminContext(config);
  } catch (error) {
    return fail(EXIT.failed, `cannot open the database: ${messageOf(error)}`);
  }
  try {
    const output = await spec.run(input, context.services);
    io.out(json ? `${JSON.stringify(output.json, null, 2)}\n` : `${output.text}\n`);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) return fail(EXIT.usage, error.message, hint);
    if (error instanceof CommandError) return fail(EXIT.failed, error.message);
    if (error instanceof AppError) return fail(EXIT.failed, MESSAGES[error.key]?.en ?? error.key);
    return fail(EXIT.failed, messageOf(error).split('\n')[0] ?? 'failed');
  } finally {
    await context.close();
  }
}
