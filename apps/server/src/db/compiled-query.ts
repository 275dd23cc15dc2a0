import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { readsAtOnce } from './database.js';
import { prepareOnPostgres } from './postgres-statements.js';
import type { Database } from './schema.js';

/** Where a run's value goes: each placeholder is an object of its own, found again by identity in the parameters. */
type Placeholder = { readonly slot: number };

export type CompiledOnce<Row, Values extends unknown[]> = {
  takeFirst(...values: Values): Promise<Row | undefined>;
  all(...values: Values): Promise<Row[]>;
  /** The same query run on another Kysely instance of the same database (a transaction's), compiled once for both. */
  on(db: Pick<Kysely<Database>, 'executeQuery'>): CompiledOnce<Row, Values>;
};

/**
 * A query built and compiled once (on its first run), then run with each call's values: Kysely builds and compiles a
 * query on every call, which for the hottest reads (the session check, a customer's orders) costs more than the
 * database's own work. `build` gets one placeholder per value and must use each as a plain value (a comparison's
 * right side), so that it lands in the parameters untouched; constants stay as they were compiled. A limit belongs in
 * the SQL (`sql.lit`), not in a placeholder: SQLite plans a statement with a bound LIMIT again on every run. On
 * PostgreSQL it runs as a named prepared statement (`prepareOnPostgres`); on SQLite a read runs on the connection at
 * once when it is free (`readsAtOnce`).
 */
export function compiledOnce<Row, Values extends unknown[]>(
  db: Pick<Kysely<Database>, 'executeQuery'>,
  arity: Values['length'],
  build: (...placeholders: Values) => Compilable<Row>,
): CompiledOnce<Row, Values> {
  let bind: ((values: unknown[]) => CompiledQuery<Row>) | undefined;
  const compile = () => {
    const placeholders = Array.from({ length: arity }, (_, slot): Placeholder => ({ slot }));
    const compiled = build(...(placeholders as Values)).compile();
    prepareOnPostgres(compiled.sql);
    const slots = compiled.parameters.map((parameter) => placeholders.indexOf(parameter as Placeholder));
    for (const placeholder of placeholders) {
      if (!slots.includes(placeholder.slot))
        throw new Error(`compiledOnce: value ${placeholder.slot} is not a parameter`);
    }
    const { query, queryId, sql, parameters: constants } = compiled;
    return (values: unknown[]): CompiledQuery<Row> => {
      // Pushed to a literal, whose kind V8 then learns: an array made by `map` starts anew as numbers on every call,
      // and a timestamp then a text changed its elements' kind in V8's runtime on every query.
      const parameters: unknown[] = [];
      for (let index = 0; index < slots.length; index++) {
        const slot = slots[index]!;
        parameters.push(slot >= 0 ? values[slot] : constants[index]);
      }
      return { query, queryId, sql, parameters };
    };
  };
  return runsOn(db, (values) => {
    bind ??= compile();
    return bind(values);
  });
}

/** A compiled-once query's runs on `db`, each with the query `bound` to its values. */
function runsOn<Row, Values extends unknown[]>(
  db: Pick<Kysely<Database>, 'executeQuery'>,
  bound: (values: unknown[]) => CompiledQuery<Row>,
): CompiledOnce<Row, Values> {
  const readAtOnce = readsAtOnce(db);
  const run = (values: unknown[]) => {
    const query = bound(values);
    return readAtOnce?.(query) ?? db.executeQuery(query);
  };
  return {
    async takeFirst(...values) {
      return (await run(values)).rows[0];
    },
    async all(...values) {
      return (await run(values)).rows;
    },
    on: (other) => runsOn(other, bound),
  };
}
