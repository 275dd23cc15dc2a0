/** The parent's side of the two server processes: start one, ask it things over IPC, stop it. */
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';

/** The captcha answer the benchmark's app accepts (its CAPTCHA_TEST_CODE), so that the load can log in. */
export const BENCH_CAPTCHA_CODE = 'bench1';

/**
 * A stats request's `collect`: a full garbage collection first (the app runs with `--expose-gc`), so that the heap is
 * what lives.
 */
export type ChildRequest = { id: number } & (
  | { type: 'stats'; collect?: boolean }
  | { type: 'direct-push'; userIds: number[] }
  | { type: 'answer'; status: number; headers: Record<string, string | string[]>; body: string }
  | { type: 'close' }
);

/** What the app's process has done so far: counters since it started, and its CPU time. */
export type AppStats = {
  statements: number;
  userStatements: number;
  nodeStatements: number;
  usableUsers: number;
  cpu: NodeJS.CpuUsage;
  memory: NodeJS.MemoryUsage;
  at: number;
};

type Distributive<T> = T extends unknown ? Omit<T, 'id'> : never;

export class Child {
  #next = 1;
  #waiting = new Map<number, { resolve: (body: unknown) => void; reject: (error: Error) => void }>();

  private constructor(
    readonly process: ChildProcess,
    readonly port: number,
  ) {
    process.on('message', (message: { id?: number; body?: unknown; error?: string }) => {
      const waiter = message.id === undefined ? undefined : this.#waiting.get(message.id);
      if (!waiter) return;
      this.#waiting.delete(message.id!);
      if (message.error) waiter.reject(new Error(message.error));
      else waiter.resolve(message.body);
    });
  }

  /**
   * Forks `file` (a TypeScript module beside this one, run through tsx; the app it starts is the built one) and waits
   * for it to listen.
   */
  static start(file: string, env: Record<string, string>, nodeOptions: string[] = []): Promise<Child> {
    const child = fork(path.join(import.meta.dirname, file), [], {
      execArgv: ['--import', 'tsx', ...nodeOptions],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`${file} exited (${code}) before it listened`));
      child.once('exit', onExit);
      child.once('error', reject);
      child.on('message', (message: { type?: string; port?: number }) => {
        if (message.type !== 'ready') return;
        child.off('exit', onExit);
        resolve(new Child(child, message.port!));
      });
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  ask<T>(request: Distributive<ChildRequest>): Promise<T> {
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#waiting.set(id, { resolve: resolve as (body: unknown) => void, reject });
      this.process.send({ ...request, id });
    });
  }

  /** Asks it to close (the app finishes its requests and closes the database); kills it if that takes too long. */
  async stop(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    const exited = new Promise((resolve) => this.process.once('exit', resolve));
    const timer = setTimeout(() => this.process.kill('SIGKILL'), 10_000);
    try {
      await Promise.race([this.ask({ type: 'close' }), exited]);
      await exited;
    } catch {
      this.process.kill('SIGKILL');
    } finally {
      clearTimeout(timer);
    }
  }

  /** Last resort on an interrupt: this process's own child, by its id. */
  kill(): void {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill('SIGKILL');
  }
}
