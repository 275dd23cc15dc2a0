import type { z } from 'zod';

/** One HTTP call: where it lives and what travels each way. Routes and web fetchers both read it. */
export type Endpoint = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
};

export function endpoint<const E extends Endpoint>(definition: E): E {
  return definition;
}
