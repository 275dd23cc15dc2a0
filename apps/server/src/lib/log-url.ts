const SECRET_PARAMS = /([?&](?:token|key|api_key)=)[^&#]*/gi;
// As long as a token: a subscription link pasted under a wrong path still carries one.
const TOKEN_SEGMENT = /(?<=\/)[\w-]{32,}(?=[/?#]|$)/g;

/**
 * A request URL as it may be logged: the subscription link's token, any other path segment as long as a token, and
 * any token in the query (the node API sends its own) are replaced, so that a log line never carries a secret.
 */
export function loggableUrl(url: string): string {
  return url
    .replace(/^\/sub\/[^/?#]*/, '/sub/:token')
    .replace(TOKEN_SEGMENT, ':token')
    .replace(SECRET_PARAMS, '$1[redacted]');
}
