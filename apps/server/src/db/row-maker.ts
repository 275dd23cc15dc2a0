/** Makes a row object from a statement's values, in its columns' order. */
export type RowMaker = (values: readonly unknown[]) => Record<string, unknown>;

/**
 * A row maker written for one statement's columns, as the drivers' own rows: the same keys in the same order, a later
 * column of a repeated name winning. V8 creates each object in its final shape at once, where a driver adds the
 * properties one at a time (a seventh of SQLite's orders list). A column named `__proto__` is a property, where a
 * driver's row would set its prototype. `parsers`: for each column, what turns the database's text into the value
 * (none: the value as it comes); a null stays null.
 */
export function rowMaker(
  names: readonly string[],
  parsers: ReadonlyArray<((text: string) => unknown) | undefined> = [],
): RowMaker {
  // A quoted `__proto__` key would set the prototype; a computed one is a property like any other.
  const keys = names.map((name) => (name === '__proto__' ? '["__proto__"]' : JSON.stringify(name)));
  const fields = keys.map((key, index) =>
    parsers[index]
      ? `${key}: values[${index}] === null ? null : parse[${index}](values[${index}])`
      : `${key}: values[${index}]`,
  );
  return new Function('parse', `return (values) => ({ ${fields.join(', ')} });`)(parsers) as RowMaker;
}
