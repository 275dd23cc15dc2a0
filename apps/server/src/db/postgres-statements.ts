/// <reference path="./pg-utils.d.ts" />
import pg from 'pg';
import pgUtils from 'pg/lib/utils.js';
import { type RowMaker, rowMaker } from './row-maker.js';

/** The query texts sent to PostgreSQL as named prepared statements, and their names. */
const preparedNames = new Map<string, string>();

/**
 * PostgreSQL parses and plans every query Kysely sends (it sends unnamed statements). A text registered here (the
 * queries compiled once, `compiled-query.ts`, run on every request) goes as a named prepared statement instead: each
 * connection prepares it the first time, then only binds and runs it (`runPrepared`). Only registered texts: a
 * prepared statement stays on its connection for good, and texts that vary (lists of ids) must not pile up.
 */
export function prepareOnPostgres(text: string): void {
  if (!preparedNames.has(text)) preparedNames.set(text, `mutenet_${preparedNames.size + 1}`);
}

/** What a statement's run answers: the parts of pg's result that Kysely reads. */
export type StatementAnswer = { command: string; rowCount: number | null; rows: unknown[] };

/** A client's own `query`, as pg has it (before `wrapQueries` puts its own in its place). */
type ClientQuery = (...args: unknown[]) => unknown;

/** pg's parser for text it has none for, which hands the text on as it is: no call is needed for those columns. */
const AS_IS = pg.types.getTypeParser(pg.types.builtins.TEXT);

/** "SELECT 4", "INSERT 0 1": the command, and the count of rows at the end (pg reads it the same way). */
const COMMAND_TAG = /^([A-Za-z]+)(?: (\d+))?(?: (\d+))?/;

/** Each connection's prepared statements, by name, with what makes their rows. */
const preparedOn = new WeakMap<object, Map<string, RowMaker>>();

/**
 * A registered text's run on `client` (whose own `query` is `query`); undefined for a text not registered. pg runs a
 * named statement as Bind, Describe, Execute and Sync, and reads the row description PostgreSQL then sends on every
 * run afresh, making each row's parsers from it. On a connection a prepared statement's rows keep the description
 * they had when it was prepared (PostgreSQL refuses to run it once a change of the schema would change them), so it
 * is learnt from the statement's first run there, through pg; the runs after it are Bind, Execute and Sync only
 * (`BoundRun`), their rows made by a function written for the statement's columns. On a feed's first fetch, which
 * reads its customer in a batched query, this took the client's CPU a query from some 150 µs to 100
 * (bench/RESULTS.md, fortieth round).
 */
export function runPrepared(
  client: object,
  query: ClientQuery,
  text: string,
  values: unknown,
): Promise<StatementAnswer> | undefined {
  const name = preparedNames.get(text);
  if (!name) return undefined;
  let prepared = preparedOn.get(client);
  const makeRow = prepared?.get(name);
  if (makeRow) {
    return new Promise((resolve, reject) => {
      query(new BoundRun(name, text, values as unknown[], makeRow, resolve, reject));
    });
  }
  return (query({ name, text, values }) as Promise<pg.QueryResult>).then((result) => {
    if (!prepared) {
      prepared = new Map();
      preparedOn.set(client, prepared);
    }
    prepared.set(name, rowsOf(result.fields));
    return result;
  });
}

/** What makes a statement's rows from the texts of their values, as pg reads the columns its description names. */
function rowsOf(fields: readonly pg.FieldDef[]): RowMaker {
  return rowMaker(
    fields.map((field) => field.name),
    fields.map((field) => {
      const parse = pg.types.getTypeParser(field.dataTypeID, 'text');
      return parse === AS_IS ? undefined : parse;
    }),
  );
}

/**
 * A run of a statement its connection has prepared, as pg's client runs a query of its own kind (pg-cursor is one):
 * Bind, Execute and Sync written at once; the rows, then the command's tag, then ReadyForQuery, or an error instead.
 */
class BoundRun {
  readonly #rows: unknown[] = [];
  #command = '';
  #rowCount = 0;
  /** A row the statement's parsers could not read: the run fails with it once the database is done. */
  #unreadable: unknown;

  constructor(
    readonly name: string,
    /** Not sent (the connection has it): read by what counts the statements a client runs (the benchmark). */
    readonly text: string,
    private readonly values: unknown[],
    private readonly makeRow: RowMaker,
    private readonly resolve: (answer: StatementAnswer) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  submit(connection: pg.Connection): Error | null {
    // Corked, as pg's own queries: the three messages leave in one write.
    connection.stream.cork();
    try {
      connection.bind(
        { statement: this.name, values: this.values as string[], valueMapper: pgUtils.prepareValue },
        false,
      );
    } catch (error) {
      // A value pg cannot send: nothing was written, and the client reports the error (`handleError`).
      connection.stream.uncork();
      return error as Error;
    }
    connection.execute({}, false);
    connection.sync();
    connection.stream.uncork();
    return null;
  }

  handleDataRow(message: { fields: unknown[] }): void {
    if (this.#unreadable) return;
    try {
      this.#rows.push(this.makeRow(message.fields));
    } catch (error) {
      this.#unreadable = error;
    }
  }

  handleCommandComplete(message: { text: string }): void {
    const tag = COMMAND_TAG.exec(message.text);
    if (!tag) return;
    this.#command = tag[1]!;
    this.#rowCount = Number(tag[3] ?? tag[2] ?? 0);
  }

  handleReadyForQuery(): void {
    if (this.#unreadable) this.reject(this.#unreadable);
    else this.resolve({ command: this.#command, rowCount: this.#rowCount, rows: this.#rows });
  }

  /** The database's error (the run then ends), or the connection's, lost or closed. */
  handleError(error: unknown): void {
    this.reject(error);
  }

  // Not sent for a statement run without Describe, nor for the app's statements (no COPY, no row limit): pg's client
  // calls these on any query all the same.
  handleRowDescription(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
  handleCopyInResponse(connection: pg.Connection & { sendCopyFail(message: string): void }): void {
    connection.sendCopyFail('No source stream defined');
  }
}
