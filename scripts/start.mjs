// `npm start`: builds what is missing or stale, then runs the server in this process. The server applies its
// migrations on start and serves http://localhost:8080/person/ with SQLite under ./data unless told otherwise.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, ROOT } from './lib.mjs';

build();
process.stdout.write('\n> start server\n');
await import(pathToFileURL(path.join(ROOT, 'apps/server/dist/server.js')).href);
