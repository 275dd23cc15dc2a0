import type * as z from 'zod/mini';

/** One HTTP call: where it lives and what travels each way. Routes and web fetchers both read it. */
export type Endpoint = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  response: z.ZodMiniType;
};

export function endpoint<const E extends Endpoint>(definition: E): E {
  return definition;
}
