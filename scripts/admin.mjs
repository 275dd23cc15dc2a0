// `npm run admin -- <noun> <verb> [flags]` (`npm run -s admin -- …` for output without npm's banner): builds the
// contract and the server when a source is newer than the build, then runs the operator's command line
// (apps/server/src/cli/admin.ts) with the arguments given. Build output goes to standard error, so that standard
// output carries only the command's own (one JSON document with --json).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildServer, ROOT, serverBuildIsStale } from './lib.mjs';

if (serverBuildIsStale()) buildServer({ toStderr: true });
await import(pathToFileURL(path.join(ROOT, 'apps/server/dist/cli/admin.js')).href);
