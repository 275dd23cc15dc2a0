// `npm run admin -- <noun> <verb> [flags]`: the operator's command line, an entry point beside server.ts. It works
// on the database of DATABASE_URL through the module services, with the server's configuration; run-admin.ts does
// the work, and this file only hands it the arguments and sets the exit status.
import { runAdmin } from './run-admin.js';

process.exitCode = await runAdmin(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
