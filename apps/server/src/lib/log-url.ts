// As long as a token: a subscription link pasted under a wrong path still carries one.
const TOKEN_SEGMENT = /(?<=\/)[\w-]{32,}(?=[/?#]|$)/g;
/** A parameter whose name, as read, says it carries a secret. */
const SECRET_NAME = /token|key|secret|password/;
/** Deeper than any reader decodes: `%25` is `%`, so `%2574oken` is `%74oken` once decoded, and `token` twice. */
const MOST_DECODINGS = 4;

/** Where a query's parameters part: `&`, and `;` and `#`, which some readers take as separators too. */
const SEPARATORS = /[&;#]/;
const nameOf = (parameter: string) => parameter.split('=', 1)[0]!;

/**
 * A parameter's name as a lenient reader reads it: percent escapes and `+` undone however deep, in lower case, with
 * letters and digits only, so that `%74oken`, `token[]`, `token%5B%5D`, ` TOKEN` and `to%2Bken` all read `token`.
 */
export function nameAsRead(name: string): string {
  let read = name;
  for (let round = 0; round < MOST_DECODINGS; round++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(read.replace(/\+/g, ' '));
    } catch {
      // A malformed escape: what decodes is decoded, the rest stays as it is.
      decoded = read.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    }
    if (decoded === read) break;
    read = decoded;
  }
  return read.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The names of the URL's query parameters exactly as they came (not decoded). */
export function queryNamesOf(url: string): string[] {
  const start = url.indexOf('?');
  if (start < 0) return [];
  return url
    .slice(start + 1)
    .split(SEPARATORS)
    .filter(Boolean)
    .map(nameOf);
}

/**
 * A request URL as it may be logged: the subscription link's token and any other path segment as long as a token are
 * replaced, and so is the value of every query parameter whose name, however it is written, says it is a secret (the
 * node API's token): a log line never carries one.
 */
export function loggableUrl(url: string): string {
  const start = url.indexOf('?');
  const path = start < 0 ? url : url.slice(0, start);
  const query =
    start < 0
      ? ''
      : url
          .slice(start)
          .replace(/[^?&;#]+/g, (parameter) =>
            SECRET_NAME.test(nameAsRead(nameOf(parameter))) ? `${nameOf(parameter)}=[redacted]` : parameter,
          );
  return `${path.replace(/^\/sub\/[^/]*/, '/sub/:token')}${query}`.replace(TOKEN_SEGMENT, ':token');
}
