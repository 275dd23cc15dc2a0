import fs from 'node:fs';
import path from 'node:path';
import { CommandError, command, given, type Noun, text } from '../command.js';
import { keyValues } from '../output.js';

export const backupCommands: Noun = {
  summary: 'a copy of the database, taken while the server runs (`backup FILE` is `backup create FILE`)',
  defaultVerb: 'create',
  verbs: {
    create: command({
      summary: 'writes a consistent online backup of the SQLite database to FILE (PostgreSQL: pg_dump, see the README)',
      args: ['FILE'],
      flags: { force: { value: '', switch: true, help: 'replaces FILE when it exists' } },
      example: 'admin backup create backups/mutenet-2025-05-01.db',
      parse: (parsed) => ({ file: text(parsed.positionals[0] ?? '', 'FILE', 4096), force: given(parsed, 'force') }),
      async run({ file, force }, { database }) {
        if (database.dialect !== 'sqlite') {
          throw new CommandError(
            'backup works on SQLite only: back up PostgreSQL with pg_dump (see README, "Backups")',
          );
        }
        if (!force && fs.existsSync(file)) throw new CommandError(`${file} exists: give --force to replace it`);
        const dir = path.dirname(path.resolve(file));
        if (!fs.existsSync(dir)) throw new CommandError(`the folder ${dir} does not exist`);
        const result = await database.backup(file);
        return {
          json: result,
          text: `backup written\n${keyValues([
            ['file', result.file],
            ['bytes', result.bytes],
          ])}`,
        };
      },
    }),
  },
};
