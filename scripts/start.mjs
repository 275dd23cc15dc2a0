// `npm start`: builds what is missing or stale, then runs the server in this process. The server applies its
// migrations on start, seeds a demo catalogue into an empty database, and serves http://localhost:8080/person/ with SQLite under ./data unless told otherwise.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, ROOT } from './lib.mjs';

build();
// A first run gets a demo catalogue to buy from; an operator's own catalogue is never touched (only an empty one is).
process.env.SEED_DEMO_CATALOG ??= 'true';
process.stdout.write('\n> start server\n');
await import(pathToFileURL(path.join(ROOT, 'apps/server/dist/server.js')).href);
