const SECRET_PARAMS = /([?&](?:token|key|api_key)=)[^&#]*/gi;

/**
 * A request URL as it may be logged: the subscription link's token and any token in the query (the node API sends
 * its own) are replaced, so that a log line never carries a secret.
 */
export function loggableUrl(url: string): string {
  return url.replace(/^\/sub\/[^/?#]*/, '/sub/:token').replace(SECRET_PARAMS, '$1[redacted]');
}
