import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { toJSONSchema, type ZodType } from 'zod';

/**
 * Writes each answer with fast-json-stringify, compiled once per route from the JSON Schema of the contract's
 * response schema. Like parsing the answer with zod first, it writes only the fields the contract declares (a
 * column a service let through never reaches the client) and fails on a missing one; unlike it, it costs a fraction
 * of a JSON.stringify rather than a validation pass over every answer.
 */
export const responseSerializerCompiler: FastifySerializerCompiler<ZodType> = ({ schema }) =>
  responseSerializerOf(schema);

/** The serializer the routes' compiler makes of a contract's response schema, for an answer written before routing. */
export function responseSerializerOf(schema: object): (payload: unknown) => string {
  return fastJson(
    toJSONSchema(schema as ZodType, { io: 'output', unrepresentable: 'any', target: 'draft-7' }) as Parameters<
      typeof fastJson
    >[0],
  );
}
