import { describe, expect, it, vi } from 'vitest';
import { POSTGRES_URL, startTestApp } from '../../test/test-app.js';

if (POSTGRES_URL) {
  describe("the database's changes on PostgreSQL", () => {
    it('are said to be heard once they are, and nothing is said of their end when the app closes', async () => {
      const app = await startTestApp({ database: 'postgres' });
      try {
        await vi.waitFor(() => expect(app.app.dbChanges.live).toBe(true), { timeout: 5000 });
      } finally {
        await app.close();
      }
      const log = app.logs.join('');
      expect(log).toContain("the database's changes are heard");
      expect(log).not.toContain("the database's changes are not heard");
    });
  });
}
