import fs from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { dialectOf, sqliteFileOf } from './database.js';

export type BackupResult = { file: string; bytes: number };

/**
 * A consistent copy of the SQLite database of `url` in `file`, taken with SQLite's online backup API while servers
 * keep reading and writing it. It is written beside `file` first and renamed into place, so that a failed backup
 * never leaves a partial file (and an existing `file` is replaced whole). PostgreSQL is backed up with pg_dump.
 */
export async function backupSqlite(url: string, file: string): Promise<BackupResult> {
  if (dialectOf(url) !== 'sqlite') throw new Error('only a SQLite database can be backed up this way');
  const source = sqliteFileOf(url);
  if (source === ':memory:') throw new Error('an in-memory database cannot be backed up');
  const target = path.resolve(file);
  if (target === path.resolve(source)) throw new Error('the backup file must not be the database itself');
  const partial = `${target}.${process.pid}.partial`;
  const database = new SQLite(source, { fileMustExist: true });
  try {
    database.pragma('busy_timeout = 5000');
    await database.backup(partial);
  } catch (error) {
    await fs.rm(partial, { force: true });
    throw error;
  } finally {
    database.close();
  }
  await fs.rename(partial, target);
  return { file: target, bytes: (await fs.stat(target)).size };
}
