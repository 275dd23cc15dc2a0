import type { RecordedSecret, SecretKind } from './test-log.js';

/** One way a secret may be written down. */
type Form = { text: string; kind: SecretKind; form: string; standalone: boolean };

/** Where a secret was found: the line, its kind and form; never the secret. */
export type Finding = { line: number; kind: SecretKind; form: string; excerpt: string };

/**
 * Below this length a secret (an email code, a short password) counts only where it stands alone, not inside a longer
 * word or number: six digits are bound to turn up in timestamps and durations otherwise.
 */
const STANDALONE_BELOW = 16;
/** Every form is at least this long; the index is keyed by its first characters. */
const PREFIX = 6;
const WORD_CHARACTER = /[\p{L}\p{N}_.]/u;
// A JSON number (a pid, a length) is never a code: codes are strings everywhere.
const NUMBER_NEIGHBOUR = /[\p{L}\p{N}_.:]/u;

/**
 * The forms a secret takes on its way into a log line or an answer: as it is, URL- and form-encoded, JSON-escaped,
 * and in base64 and base64url. A long secret is also looked for inside a longer base64 text, at each of the three
 * byte offsets it may start at.
 */
function formsOf({ kind, value }: RecordedSecret): Form[] {
  const standalone = value.length < STANDALONE_BELOW;
  const forms = new Map<string, string>();
  const add = (text: string, form: string) => {
    if (text.length >= PREFIX && !forms.has(text)) forms.set(text, form);
  };
  add(value, 'raw');
  add(encodeURIComponent(value), 'URL-encoded');
  add(new URLSearchParams({ v: value }).toString().slice(2), 'form-encoded');
  add(JSON.stringify(value).slice(1, -1), 'JSON-escaped');
  const bytes = Buffer.from(value);
  if (standalone) {
    add(bytes.toString('base64').replace(/=+$/, ''), 'base64');
    add(bytes.toString('base64url'), 'base64url');
  } else {
    for (const offset of [0, 1, 2]) {
      const whole = bytes.subarray(offset, offset + Math.floor((bytes.length - offset) / 3) * 3);
      add(whole.toString('base64'), 'base64');
      add(whole.toString('base64url'), 'base64url');
    }
  }
  return [...forms].map(([text, form]) => ({ text, kind, form, standalone }));
}

function standsAlone(line: string, at: number, { text }: Form): boolean {
  const neighbour = /^\d+$/.test(text) ? NUMBER_NEIGHBOUR : WORD_CHARACTER;
  const before = line[at - 1];
  const after = line[at + text.length];
  return !(before && neighbour.test(before)) && !(after && neighbour.test(after));
}

/** The line with every character of every found form replaced, each run of them by the kind's name. */
function mask(line: string, found: { at: number; form: Form }[]): string {
  const covered = new Array<SecretKind | undefined>(line.length).fill(undefined);
  for (const { at, form } of found) covered.fill(form.kind, at, at + form.text.length);
  let masked = '';
  for (let at = 0; at < line.length; at++) {
    const kind = covered[at];
    if (!kind) masked += line[at];
    else if (covered[at - 1] !== kind) masked += `[${kind}]`;
  }
  return masked;
}

/** Looks for every form of every secret in lines of text, in one pass over each line. */
export class SecretScanner {
  readonly #byPrefix = new Map<string, Form[]>();

  constructor(secrets: Iterable<RecordedSecret>) {
    for (const secret of secrets) {
      for (const form of formsOf(secret)) {
        const prefix = form.text.slice(0, PREFIX);
        const bucket = this.#byPrefix.get(prefix);
        if (bucket) bucket.push(form);
        else this.#byPrefix.set(prefix, [form]);
      }
    }
  }

  /** The findings in a text, one per line and secret form, with that line's excerpt in which each is masked. */
  scan(text: string): Finding[] {
    const findings: Finding[] = [];
    text.split('\n').forEach((line, index) => {
      const found: { at: number; form: Form }[] = [];
      for (let at = 0; at + PREFIX <= line.length; at++) {
        for (const form of this.#byPrefix.get(line.slice(at, at + PREFIX)) ?? []) {
          if (!line.startsWith(form.text, at) || (form.standalone && !standsAlone(line, at, form))) continue;
          found.push({ at, form });
        }
      }
      if (!found.length) return;
      const masked = mask(line, found);
      const excerpt = masked.length > 300 ? `${masked.slice(0, 300)}…` : masked;
      const seen = new Set<string>();
      for (const { form } of found) {
        const key = `${form.kind}/${form.form}`;
        if (seen.has(key)) continue;
        seen.add(key);
        findings.push({ line: index + 1, kind: form.kind, form: form.form, excerpt });
      }
    });
    return findings;
  }
}
