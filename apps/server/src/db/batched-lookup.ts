type Waiting<Arg, Value> = { arg: Arg; resolve(value: Value | undefined): void; reject(error: unknown): void };

/**
 * Lookups by key go to the database together, as one query for all their keys: on PostgreSQL each query costs the
 * app a round trip's work (the client's messages and their parsing), as much as the rest of a small call. A burst of
 * lookups (client apps fetching their links after an outage, each a link not read for hours) costs a query per batch
 * rather than one each. A lookup that finds none under way waits only for the end of the event loop's current turn
 * (`setImmediate`), so that the requests read from the sockets in the same turn go with it; those that come while a
 * query is under way wait for it, and go as soon as it is answered. `lookUp` gets the batch's keys (each once) and
 * every waiting lookup's `arg` (the time each asks about, say), and answers each key's value (none for a key it does
 * not find).
 */
export class BatchedLookup<Key, Arg, Value> {
  #waiting = new Map<Key, Waiting<Arg, Value>[]>();
  /** A run is due at the end of this turn, or under way: a new lookup then only joins the waiting ones. */
  #busy = false;

  constructor(
    private readonly lookUp: (keys: Key[], args: Arg[]) => Promise<ReadonlyMap<Key, Value>>,
    private readonly maxKeys: number,
  ) {}

  get(key: Key, arg: Arg): Promise<Value | undefined> {
    return new Promise((resolve, reject) => {
      const waiting = this.#waiting.get(key);
      if (waiting) waiting.push({ arg, resolve, reject });
      else this.#waiting.set(key, [{ arg, resolve, reject }]);
      if (this.#busy) return;
      this.#busy = true;
      setImmediate(() => void this.#run());
    });
  }

  async #run(): Promise<void> {
    while (this.#waiting.size > 0) {
      const batch = this.#take();
      const args = [...batch.values()].flatMap((waiting) => waiting.map((one) => one.arg));
      let settle: () => void;
      try {
        const found = await this.lookUp([...batch.keys()], args);
        settle = () => {
          for (const [key, waiting] of batch) for (const one of waiting) one.resolve(found.get(key));
        };
      } catch (error) {
        settle = () => {
          for (const waiting of batch.values()) for (const one of waiting) one.reject(error);
        };
      }
      // With lookups waiting, their query goes first (this loop's next pass, within the same task) and this batch's
      // are answered after it, at the end of the event loop's turn: the database then reads the next batch while the
      // app answers this one, where it had waited for the answers' work before it got the next query.
      if (this.#waiting.size > 0) setImmediate(settle);
      else settle();
    }
    this.#busy = false;
  }

  /** Up to `maxKeys` of the waiting keys, the longest waiting first; the others wait for the next batch. */
  #take(): Map<Key, Waiting<Arg, Value>[]> {
    if (this.#waiting.size <= this.maxKeys) {
      const all = this.#waiting;
      this.#waiting = new Map();
      return all;
    }
    const batch = new Map<Key, Waiting<Arg, Value>[]>();
    for (const [key, waiting] of this.#waiting) {
      if (batch.size === this.maxKeys) break;
      batch.set(key, waiting);
    }
    for (const key of batch.keys()) this.#waiting.delete(key);
    return batch;
  }
}
