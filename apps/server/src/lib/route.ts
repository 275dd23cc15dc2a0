import type { Endpoint } from '@mutenet/contract';

/** The Fastify route options of a contract endpoint: its method, path and schemas, written only once. */
export function routeOf<const E extends Endpoint>(endpoint: E) {
  const schema = {
    params: endpoint.params as E['params'],
    querystring: endpoint.query as E['query'],
    body: endpoint.body as E['body'],
    response: { 200: endpoint.response as E['response'] },
  };
  // An absent schema must be absent, not undefined, or Fastify warns that it is missing.
  if (!endpoint.params) delete schema.params;
  if (!endpoint.query) delete schema.querystring;
  if (!endpoint.body) delete schema.body;
  return { method: endpoint.method, url: endpoint.path, schema };
}
