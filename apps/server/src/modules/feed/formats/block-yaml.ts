/**
 * Block-style YAML of plain data (maps, lists, strings, numbers, booleans), laid out as the `yaml` package lays it out
 * with every string double-quoted, written directly: a Clash profile is written for every feed request, and the
 * general-purpose writer (its document model, then the text) cost milliseconds a profile.
 *
 * Strings are JSON strings, which YAML 1.2 reads as double-quoted scalars, with the characters YAML does not allow in
 * a stream (C0 and C1 controls, DEL, U+FEFF, U+FFFE, U+FFFF) or that YAML 1.1 readers take for line breaks (U+0085,
 * U+2028, U+2029) escaped as well.
 */
export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue | undefined };
type YamlMap = { [key: string]: YamlValue | undefined };

const PLAIN_KEY = /^[A-Za-z][A-Za-z0-9_-]*$/;
const NOT_PRINTABLE = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g;

export function toBlockYaml(document: YamlMap): string {
  const lines: string[] = [];
  writeMap(document, '', '', lines);
  if (lines.length === 0) lines.push('{}');
  return `${lines.join('\n')}\n`;
}

function quote(text: string): string {
  return JSON.stringify(text).replace(
    NOT_PRINTABLE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function scalar(value: YamlValue): string {
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a YAML number: ${value}`);
    return String(value);
  }
  if (Array.isArray(value)) return '[]';
  if (value !== null && typeof value === 'object') return '{}';
  return String(value);
}

const isNonEmptyCollection = (value: YamlValue): value is YamlValue[] | YamlMap =>
  Array.isArray(value)
    ? value.length > 0
    : value !== null && typeof value === 'object' && Object.values(value).some((entry) => entry !== undefined);

/** A map's entries at `indent`; the first goes after `firstPrefix` (a list item's `- `) when there is one. */
function writeMap(map: YamlMap, indent: string, firstPrefix: string, lines: string[]) {
  let prefix = firstPrefix || indent;
  for (const [key, value] of Object.entries(map)) {
    if (value === undefined) continue;
    const head = `${prefix}${PLAIN_KEY.test(key) ? key : quote(key)}:`;
    prefix = indent;
    if (!isNonEmptyCollection(value)) lines.push(`${head} ${scalar(value)}`);
    else {
      lines.push(head);
      writeCollection(value, `${indent}  `, lines);
    }
  }
}

function writeCollection(value: YamlValue[] | YamlMap, indent: string, lines: string[]) {
  if (!Array.isArray(value)) {
    writeMap(value, indent, '', lines);
    return;
  }
  for (const item of value) {
    if (Array.isArray(item) && item.length > 0) throw new Error('a list directly inside a list is not written');
    if (isNonEmptyCollection(item)) writeMap(item as YamlMap, `${indent}  `, `${indent}- `, lines);
    else lines.push(`${indent}- ${scalar(item)}`);
  }
}
