import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../test/accounts.js';
import { type SeededCatalog, seedCatalog } from '../../test/catalog.js';
import { httpClient } from '../../test/http-client.js';
import { startTestApp, type TestApp } from '../../test/test-app.js';

const PUBLIC_URL = 'https://panel.example.com';

// The checkout's cookie authenticates only changes sent from the panel's own pages: their Origin is PUBLIC_URL's.
describe("the checkout cookie's Origin check, behind a trusted proxy", () => {
  let app: TestApp;
  let seeded: SeededCatalog;
  let seq = 0;

  beforeAll(async () => {
    app = await startTestApp({ env: { PUBLIC_URL, TRUST_PROXY: 'true' } });
    seeded = await seedCatalog(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  async function waitingOrder() {
    const api = httpClient(app.url, { language: 'en' });
    const token = await signUp(app, api, `origin${++seq}@example.com`);
    const { body } = await api.post('/mutenet/user/order/create', {
      form: { pkgId: String(seeded.traffic30), currency: 'USD' },
      token,
    });
    expect(body.code).toBe(0);
    return { api, cookie: `token=${token}`, no: body.data.orderNo as string };
  }

  it('refuses an origin that the request names as its own forwarded host', async () => {
    const { api, cookie, no } = await waitingOrder();
    const forged = await api.post(`/payment/sandbox/${no}/approve`, {
      headers: {
        cookie,
        origin: 'https://evil.example',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
      },
    });
    expect(forged.status).toBe(403);
    expect(forged.body).toMatchObject({ code: 403, data: null });
  });

  it("takes PUBLIC_URL's origin, whatever host the request reached", async () => {
    const { api, cookie, no } = await waitingOrder();
    const own = await api.post(`/payment/sandbox/${no}/approve`, { headers: { cookie, origin: PUBLIC_URL } });
    expect(own.body).toMatchObject({ code: 0, data: { status: 'success' } });
  });
});
