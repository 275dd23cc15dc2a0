import http from 'node:http';
import { type CallResult, randomIp } from './http-client.js';

export type RawCall = {
  method: string;
  /** Sent byte for byte: nothing normalises `..`, percent escapes or a body on GET, as fetch would. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
};

/** One HTTP request exactly as given, from a client address of its own (the test app trusts X-Forwarded-For). */
export function rawRequest(baseUrl: string, { method, path, headers = {}, body }: RawCall): Promise<CallResult> {
  // Node frames a body on GET with no length of its own: the server would read it as a second request.
  const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${baseUrl}${path}`,
      { method, headers: { 'x-forwarded-for': randomIp(), ...length, ...headers }, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const type = String(response.headers['content-type'] ?? '');
          const fields = Object.entries(response.headers).map(([name, value]) => [name, String(value)]);
          resolve({
            status: response.statusCode ?? 0,
            headers: new Headers(fields as [string, string][]),
            body: type.includes('json') && text ? JSON.parse(text) : text,
            text,
          });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
