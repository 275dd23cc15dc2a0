import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, spawnServer, until, whenHealthy } from './test/server-process.js';
import { CAPTCHA_TEST_CODE } from './test/test-app.js';

let dir: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mutenet-server-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('the server process', () => {
  it('finishes a request in flight on SIGTERM, refuses new connections, and exits with 0', async () => {
    const port = await freePort();
    const server = spawnServer(dir, {
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${path.join(dir, 'shutdown.db')}`,
      MAIL_OUTBOX_DIR: path.join(dir, 'outbox'),
      WEB_DIST_DIR: path.join(dir, 'web'),
      CAPTCHA_TEST_CODE,
      LOG_LEVEL: 'info',
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      await whenHealthy(server, base);

      const captcha = (await (await fetch(`${base}/mutenet/verify/code/img`)).json()) as { data: { imgId: string } };
      const body = new URLSearchParams({
        email: 'nobody@example.com',
        password: 'Wrong123',
        imgCode: CAPTCHA_TEST_CODE,
        imgId: captcha.data.imgId,
      }).toString();

      // The request starts: its headers and half of its body are sent, the rest is held back.
      const request = http.request(`${base}/mutenet/login`, {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
      });
      const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
        request.on('response', (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        });
        request.on('error', reject);
      });
      request.write(body.slice(0, 10));
      await until(
        () => (server.stdout.join('').includes('"url":"/mutenet/login"') ? true : undefined),
        'the server to see the request',
      );

      server.child.kill('SIGTERM');
      // The listener closes while the request is still in flight.
      await until(async () => ((await connects(port)) ? undefined : true), 'new connections to be refused', 5000);
      expect(server.child.exitCode).toBeNull();

      request.end(body.slice(10));
      const { status, text } = await answered;
      expect(status).toBe(200);
      expect(JSON.parse(text)).toMatchObject({ code: 1015 });

      const code = await Promise.race([server.exited, sleep(5000).then(() => 'still running')]);
      expect(code).toBe(0);
      expect(server.stdout.join('')).toContain('"signal":"SIGTERM"');
      expect(await connects(port)).toBe(false);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('refuses to start on a bad variable, naming it, with a non-zero exit', async () => {
    const server = spawnServer(dir, {
      PORT: 'abc',
      LOG_LEVEL: 'loud',
      DATABASE_URL: `sqlite:${path.join(dir, 'bad.db')}`,
    });
    try {
      const code = await Promise.race([server.exited, sleep(15_000).then(() => 'still running')]);
      expect(code).not.toBe(0);
      expect(typeof code).toBe('number');
      const stderr = server.stderr.join('');
      expect(stderr).toContain('PORT');
      expect(stderr).toContain('LOG_LEVEL');
      // A configuration message, not a crash.
      expect(stderr).not.toMatch(/\bat .+:\d+:\d+/);
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});
