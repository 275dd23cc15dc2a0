import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const SERVER_DIR = path.resolve(import.meta.dirname, '../..');
const CONTRACT_SOURCE = path.resolve(SERVER_DIR, '../../packages/contract/src/index.ts');

/** A loopback port nothing listens on at the moment. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls `probe` until it returns a value, or fails naming `what` once `timeoutMs` has passed. */
export async function until<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}

export type ServerProcess = { child: ChildProcess; stdout: string[]; stderr: string[]; exited: Promise<number | null> };

/**
 * `server.ts` in a process of its own, from the sources (tsx), with only the variables given (and what a process
 * needs to run). `dir` is a temporary folder of the caller's, where the process's tsconfig goes.
 */
export function spawnServer(dir: string, env: Record<string, string>): ServerProcess {
  // tsx reads the contract from its source, as vitest does, rather than from a build that may be stale or absent.
  const tsconfig = path.join(dir, 'tsconfig.json');
  fs.writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: path.join(SERVER_DIR, 'tsconfig.json'),
      compilerOptions: { paths: { '@mutenet/contract': [CONTRACT_SOURCE] } },
    }),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(SERVER_DIR, 'src/server.ts')], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? '', TSX_TSCONFIG_PATH: tsconfig, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => stdout.push(chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, stdout, stderr, exited };
}

/** Waits until the process answers its health check with 200; fails at once if it exits first. */
export function whenHealthy(server: ServerProcess, baseUrl: string, timeoutMs = 15_000): Promise<true> {
  return until(
    async () => {
      if (server.child.exitCode !== null) throw new Error(`the server exited: ${server.stderr.join('')}`);
      const response = await fetch(`${baseUrl}/healthz`).catch(() => undefined);
      return response?.status === 200 ? true : undefined;
    },
    'the health check',
    timeoutMs,
  );
}
