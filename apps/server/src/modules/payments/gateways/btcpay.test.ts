import { MESSAGES } from '@mutenet/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SeededCatalog, seedCatalog } from '../../../test/catalog.js';
import { type FakeBtcpay, startFakeBtcpay } from '../../../test/fakes/btcpay.js';
import { httpClient } from '../../../test/http-client.js';
import { parseExposition, sampleValue } from '../../../test/metrics.js';
import { newCustomerOrder, paymentState } from '../../../test/payments.js';
import { DATABASES, POSTGRES_URL, REDIS_URL, startTestApp, type TestApp } from '../../../test/test-app.js';
import { RECONCILE_AFTER_MS, RefundFailed } from '../payments.service.js';
import { BTCPAY_SIGNATURE_HEADER, btcpayGateway, signBtcpay } from './btcpay.js';
import { GatewayUnavailable, NotificationRejected, type PaymentGateway } from './gateway.js';

const STORE_ID = 'StoreA1b2C3d4E5f6G7h8J9k0';
const API_KEY = 'greenfieldkey0123456789abcdef0123456789';
const WEBHOOK_SECRET = 'btcpay-webhook-secret-for-tests';

const ORDER_NO = '202612020000001234567890';
const order = (overrides = {}) => ({
  no: ORDER_NO,
  amountMinor: 499,
  decimals: 2,
  currency: 'USD',
  email: 'buyer@example.com',
  description: 'Traffic 100 · 100 GB / 30 days',
  dueAt: Date.now() + 30 * 60_000,
  ...overrides,
});
const context = {
  language: 'en' as const,
  returnUrl: `https://panel.example/person/status/${ORDER_NO}`,
  notifyUrl: 'https://panel.example/payment/notify/btcpay',
};

/** A webhook as BTCPay posts it: the raw body and its BTCPay-Sig header. */
function signed(body: Record<string, unknown>, secret = WEBHOOK_SECRET) {
  const rawBody = JSON.stringify(body);
  return { headers: { [BTCPAY_SIGNATURE_HEADER]: signBtcpay(secret, rawBody) }, rawBody };
}

describe('the BTCPay gateway against a fake BTCPay Server', () => {
  let fake: FakeBtcpay;
  let gateway: PaymentGateway;

  beforeAll(async () => {
    fake = await startFakeBtcpay({ storeId: STORE_ID, apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET });
    gateway = btcpayGateway({
      url: fake.url,
      storeId: STORE_ID,
      apiKey: API_KEY,
      webhookSecret: WEBHOOK_SECRET,
      currencies: ['USD', 'BRL', 'CLP'],
    });
  });
  afterAll(async () => {
    await fake?.close();
  });
  afterEach(() => {
    fake.mode = 'normal';
  });

  it('offers itself for its configured currencies only, named in each language', () => {
    expect(['USD', 'BRL', 'CLP', 'MXN', 'usd'].map((currency) => gateway.takes(currency))).toEqual([
      true,
      true,
      true,
      false,
      true,
    ]);
    expect(gateway.name('en')).toContain('BTCPay');
    expect(gateway.name('pt-BR')).toContain('criptomoedas');
    expect(gateway.name('zh-Hans')).toContain('比特币');
  });

  it('creates an invoice in the order currency and sends the customer to its checkout', async () => {
    const started = await gateway.start(order(), { ...context, language: 'zh-Hans' });
    const invoice = fake.invoice(started.reference!);
    expect(started).toEqual({ redirect: invoice.checkoutLink, reference: invoice.id });
    const request = fake.requests.at(-1)!;
    expect(request).toMatchObject({
      method: 'POST',
      path: `/api/v1/stores/${STORE_ID}/invoices`,
      authorization: `token ${API_KEY}`,
    });
    expect(request.body).toMatchObject({
      amount: '4.99',
      currency: 'USD',
      metadata: { orderId: ORDER_NO, buyerEmail: 'buyer@example.com' },
      checkout: {
        redirectURL: context.returnUrl,
        redirectAutomatically: true,
        defaultLanguage: 'zh-SP',
      },
    });
    // The invoice expires no later than the order does.
    const { expirationMinutes } = (request.body as { checkout: { expirationMinutes: number } }).checkout;
    expect([29, 30]).toContain(expirationMinutes);

    // A currency without decimals keeps its units.
    const pesos = await gateway.start(order({ amountMinor: 4990, decimals: 0, currency: 'CLP' }), context);
    expect(fake.invoice(pesos.reference!)).toMatchObject({ amount: '4990', currency: 'CLP' });
  });

  it('reads each state back from the invoice, with one event id per invoice state', async () => {
    const { reference } = await gateway.start(order(), context);
    const id = reference!;
    const verify = (type: string, extra = {}) => gateway.verify(signed(fake.event(type, id, extra)));
    const expected = (outcome: string, type: string) => [
      { eventId: `${id}:${type}`, orderNo: ORDER_NO, outcome, amount: '4.99', currency: 'USD', paymentRef: id },
    ];

    expect(await gateway.status({ orderNo: ORDER_NO, reference: id, currency: 'USD' })).toEqual([]);
    for (const type of ['InvoiceCreated', 'InvoiceReceivedPayment', 'InvoicePaymentSettled', 'PayoutCreated']) {
      expect(await verify(type), type).toEqual([]);
    }
    expect(await gateway.verify(signed({ type: 'PayoutApproved', payoutId: 'P1', pullPaymentId: 'PP1' }))).toEqual([]);
    await fake.payUnconfirmed(id);
    expect(await verify('InvoiceProcessing', { overPaid: false })).toEqual(expected('doing', 'InvoiceProcessing'));
    expect(await gateway.status({ orderNo: ORDER_NO, reference: id, currency: 'USD' })).toEqual(
      expected('doing', 'InvoiceProcessing'),
    );
    await fake.confirm(id);
    expect(await verify('InvoiceSettled', { manuallyMarked: false })).toEqual(expected('success', 'InvoiceSettled'));
    expect(await gateway.status({ orderNo: ORDER_NO, reference: id, currency: 'USD' })).toEqual(
      expected('success', 'InvoiceSettled'),
    );
    // A redelivery has a new delivery id and the same event id.
    const first = fake.deliveriesOf('InvoiceSettled', id)[0]!;
    const again = { ...first.body, deliveryId: 'another', isRedelivery: true };
    expect(await gateway.verify(signed(again))).toEqual(expected('success', 'InvoiceSettled'));
  });

  it('maps expiry and invalidity: cancel, failed, and rejected when the operator takes a settlement back', async () => {
    const states = async (act: (id: string) => Promise<void>) => {
      const id = (await gateway.start(order(), context)).reference!;
      await act(id);
      const delivered = fake.deliveries.at(-1)!.body;
      const fromWebhook = await gateway.verify(signed(delivered));
      const fromStatus = await gateway.status({ orderNo: ORDER_NO, reference: id, currency: 'USD' });
      expect(fromStatus).toEqual(fromWebhook);
      return fromWebhook.map(({ eventId, outcome }) => ({ eventId: eventId.replace(id, 'ID'), outcome }));
    };
    expect(await states((id) => fake.expire(id))).toEqual([{ eventId: 'ID:InvoiceExpired', outcome: 'cancel' }]);
    expect(await states((id) => fake.expire(id, { partiallyPaid: true }))).toEqual([
      { eventId: 'ID:InvoiceExpired', outcome: 'failed' },
    ]);
    expect(
      await states(async (id) => {
        await fake.payUnconfirmed(id);
        await fake.failConfirmations(id);
      }),
    ).toEqual([{ eventId: 'ID:InvoiceInvalid', outcome: 'failed' }]);
    expect(
      await states(async (id) => {
        await fake.markSettled(id);
        await fake.markInvalid(id);
      }),
    ).toEqual([{ eventId: 'ID:InvoiceInvalid', outcome: 'rejected' }]);
  });

  it('refuses what BTCPay did not sign, another store, and malformed bodies', async () => {
    const id = (await gateway.start(order(), context)).reference!;
    await fake.settle(id);
    const body = fake.event('InvoiceSettled', id, { manuallyMarked: false });
    const rawBody = JSON.stringify(body);
    const refused = [
      { headers: {}, rawBody },
      { headers: { [BTCPAY_SIGNATURE_HEADER]: signBtcpay('another-secret-entirely', rawBody) }, rawBody },
      { headers: { [BTCPAY_SIGNATURE_HEADER]: signBtcpay(WEBHOOK_SECRET, rawBody).replace('sha256=', '') }, rawBody },
      { headers: { [BTCPAY_SIGNATURE_HEADER]: signBtcpay(WEBHOOK_SECRET, rawBody) }, rawBody: `${rawBody} ` },
      { headers: { [BTCPAY_SIGNATURE_HEADER]: [signBtcpay(WEBHOOK_SECRET, rawBody)] }, rawBody },
      signed({ ...body, storeId: 'AnotherStore' }),
      signed({ ...body, invoiceId: undefined }),
      signed({ ...body, deliveryId: 42 }),
      signed({ ...body, invoiceId: 'NoSuchInvoice' }),
      { headers: { [BTCPAY_SIGNATURE_HEADER]: signBtcpay(WEBHOOK_SECRET, 'not json') }, rawBody: 'not json' },
    ];
    for (const [i, request] of refused.entries()) {
      await expect(gateway.verify(request), `case ${i}`).rejects.toBeInstanceOf(NotificationRejected);
    }
    // Invoices of the store's own apps (no order of ours) are genuine and not ours.
    const pos = fake.invoice((await gateway.start(order(), context)).reference!);
    pos.metadata = { orderId: 'pos-app_346KRC5BjXXXo8cRFKwTBmdR6ZJ4' };
    await fake.settle(pos.id);
    expect(await gateway.verify(signed(fake.event('InvoiceSettled', pos.id)))).toEqual([]);
    pos.metadata = { orderId: 346, posData: { cart: [] } };
    expect(await gateway.verify(signed(fake.event('InvoiceSettled', pos.id)))).toEqual([]);
    expect(await gateway.status({ orderNo: ORDER_NO, reference: pos.id, currency: 'USD' })).toEqual([]);
  });

  it('refunds with a pull payment at the current rate', async () => {
    const id = (await gateway.start(order(), context)).reference!;
    const request = { orderNo: ORDER_NO, paymentRef: id, amountMinor: 499, decimals: 2, currency: 'USD' };
    // BTCPay refuses to refund an invoice that was not paid.
    await expect(gateway.refund(request)).rejects.toBeInstanceOf(GatewayUnavailable);
    await fake.settle(id);
    await gateway.refund(request);
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: `/api/v1/stores/${STORE_ID}/invoices/${id}/refund`,
      body: { refundVariant: 'CurrentRate' },
    });
    expect(fake.pullPayments.filter((pp) => pp.invoiceId === id)).toHaveLength(1);
    await expect(gateway.refund({ ...request, paymentRef: 'NoSuchInvoice' })).rejects.toBeInstanceOf(
      GatewayUnavailable,
    );
  });

  it('gives up on a BTCPay that errs or hangs, naming neither its key nor its secret', async () => {
    const id = (await gateway.start(order(), context)).reference!;
    await fake.settle(id);
    const body = signed(fake.event('InvoiceSettled', id));
    for (const mode of ['error', 'hang'] as const) {
      fake.mode = mode;
      const calls = [
        gateway.start(order(), context),
        gateway.verify(body),
        gateway.status({ orderNo: ORDER_NO, reference: id, currency: 'USD' }),
        gateway.refund({ orderNo: ORDER_NO, paymentRef: id, amountMinor: 499, decimals: 2, currency: 'USD' }),
      ];
      for (const call of calls) {
        const error = await call.then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(error, mode).toBeInstanceOf(GatewayUnavailable);
        expect((error as Error).message).not.toContain(API_KEY);
        expect((error as Error).message).not.toContain(WEBHOOK_SECRET);
      }
    }
    // A gateway nobody listens on.
    const closed = btcpayGateway({
      url: 'http://127.0.0.1:9',
      storeId: STORE_ID,
      apiKey: API_KEY,
      webhookSecret: WEBHOOK_SECRET,
      currencies: ['USD'],
    });
    await expect(closed.start(order(), context)).rejects.toBeInstanceOf(GatewayUnavailable);
    // A wrong key is BTCPay's 401.
    const wrongKey = btcpayGateway({
      url: fake.url,
      storeId: STORE_ID,
      apiKey: 'not-the-key-0000000000',
      webhookSecret: WEBHOOK_SECRET,
      currencies: ['USD'],
    });
    await expect(wrongKey.start(order(), context)).rejects.toBeInstanceOf(GatewayUnavailable);
  }, 30_000);
});

const en = (key: keyof typeof MESSAGES) => MESSAGES[key].en;
const btcpayEnv = (fake: FakeBtcpay, currencies = 'USD') => ({
  BTCPAY_URL: fake.url,
  BTCPAY_STORE_ID: fake.storeId,
  BTCPAY_API_KEY: fake.apiKey,
  BTCPAY_WEBHOOK_SECRET: fake.webhookSecret,
  BTCPAY_CURRENCIES: currencies,
});

describe.each(DATABASES)('paying with BTCPay through the panel on %s', (database) => {
  let app: TestApp;
  let fake: FakeBtcpay;
  let seeded: SeededCatalog;
  let seq = 0;

  beforeAll(async () => {
    fake = await startFakeBtcpay({ storeId: STORE_ID, apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET });
    app = await startTestApp({ database, env: btcpayEnv(fake) });
    fake.webhookUrl = `${app.url}/payment/notify/btcpay`;
    seeded = await seedCatalog(app);
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });
  afterEach(() => {
    fake.mode = 'normal';
    fake.loseNotifications = false;
  });

  async function customerOrder(currency = 'USD', language = 'en') {
    const email = `btc${++seq}.${database}@example.com`;
    const { order, ...customer } = await newCustomerOrder(app, { email, pkgId: seeded.traffic30, currency, language });
    return { ...customer, row: order };
  }

  /** Picks BTCPay at the checkout: the order turns paying and the answer is the fake's checkout page. */
  async function payWithBtcpay(currency = 'USD') {
    const customer = await customerOrder(currency);
    const paid = await customer.api.post(`/payment/checkout/${customer.no}/pay`, {
      form: { method: 'btcpay' },
      token: customer.token,
    });
    expect(paid.body).toMatchObject({ code: 0, data: { redirect: expect.stringContaining(`${fake.url}/i/`) } });
    const invoice = fake.invoiceOf(customer.no);
    expect(paid.body.data.redirect).toBe(invoice.checkoutLink);
    return { ...customer, invoice };
  }

  const state = (orderId: number) => paymentState(app, orderId);

  it('lists BTCPay at the checkout for its configured currencies only', async () => {
    const dollars = await customerOrder('USD');
    const reais = await customerOrder('BRL');
    const methods = async ({ api, no, token }: typeof dollars) =>
      (await api.get(`/payment/checkout/${no}`, { token })).body.data.methods.map(
        (method: { id: string }) => method.id,
      );
    expect(await methods(dollars)).toContain('btcpay');
    expect(await methods(reais)).not.toContain('btcpay');
    const refused = await reais.api.post(`/payment/checkout/${reais.no}/pay`, {
      form: { method: 'btcpay' },
      token: reais.token,
    });
    expect(refused.body).toMatchObject({ code: 2006, msg: en('PAYMENT_METHOD_UNAVAILABLE') });
    expect(fake.requests.some((request) => JSON.stringify(request.body ?? '').includes(reais.no))).toBe(false);
  });

  it('activates a crypto payment: in process while it confirms, then paid with its package', async () => {
    const { row, invoice } = await payWithBtcpay();
    expect(await state(row.id)).toEqual({ status: 'paying', packages: 0, events: 0 });
    await fake.payUnconfirmed(invoice.id);
    expect(fake.deliveriesOf('InvoiceProcessing', invoice.id)[0]).toMatchObject({ status: 200 });
    // InvoiceCreated and InvoiceReceivedPayment are answered and change nothing.
    expect(fake.deliveriesOf('InvoiceReceivedPayment', invoice.id)[0]).toMatchObject({ status: 200 });
    expect(await state(row.id)).toEqual({ status: 'doing', packages: 0, events: 1 });
    await fake.confirm(invoice.id);
    expect(fake.deliveriesOf('InvoiceSettled', invoice.id)[0]).toMatchObject({
      status: 200,
      answer: { code: 0, data: { status: 'success', applied: true } },
    });
    expect(await state(row.id)).toEqual({ status: 'success', packages: 1, events: 2 });
    const paid = await app.app.db.selectFrom('orders').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(paid).toMatchObject({ gateway: 'btcpay', payment_ref: invoice.id });
  });

  it('cancels the order when the invoice expires unpaid, and fails it when it expires part-paid', async () => {
    const unpaid = await payWithBtcpay();
    await fake.expire(unpaid.invoice.id);
    expect(await state(unpaid.row.id)).toEqual({ status: 'cancel', packages: 0, events: 1 });
    const short = await payWithBtcpay();
    await fake.expire(short.invoice.id, { partiallyPaid: true });
    expect(await state(short.row.id)).toEqual({ status: 'failed', packages: 0, events: 1 });
  });

  it('refuses forged, wrongly signed, other-store, amount-mismatched and other-order notifications', async () => {
    const { row, invoice } = await payWithBtcpay();
    await fake.payUnconfirmed(invoice.id);
    const before = await state(row.id);
    expect(before).toEqual({ status: 'doing', packages: 0, events: 1 });
    fake.invoice(invoice.id).status = 'Settled';
    const settled = fake.event('InvoiceSettled', invoice.id, { manuallyMarked: false });
    const answers = [
      await fake.deliver(settled, { signature: null }),
      await fake.deliver(settled, { secret: 'not-the-webhook-secret' }),
      await fake.deliver(settled, { signature: `sha256=${'0'.repeat(64)}` }),
      await fake.deliver({ ...settled, storeId: 'AnotherStore' }),
      await fake.deliver('{"type":"InvoiceSettled"'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 400, 400]);
    expect(await state(row.id)).toEqual(before);

    // The invoice BTCPay holds says another price, or another order's number: refused, never activated.
    fake.invoice(invoice.id).amount = '0.01';
    expect((await fake.deliver(settled)).status).toBe(400);
    fake.invoice(invoice.id).amount = invoice.amount;
    fake.invoice(invoice.id).metadata = { ...invoice.metadata, orderId: '209912319999999999999999' };
    expect((await fake.deliver(settled)).status).toBe(400);
    fake.invoice(invoice.id).currency = 'BRL';
    fake.invoice(invoice.id).metadata = { ...invoice.metadata, orderId: row.no };
    expect((await fake.deliver(settled)).status).toBe(400);
    expect(await state(row.id)).toEqual(before);
    expect(app.logs.some((line) => line.includes(API_KEY) || line.includes(WEBHOOK_SECRET))).toBe(false);
  });

  it('applies a replayed or stale notification once', async () => {
    const { row, invoice } = await payWithBtcpay();
    await fake.settle(invoice.id);
    expect(await state(row.id)).toEqual({ status: 'success', packages: 1, events: 2 });
    const [settledDelivery] = fake.deliveriesOf('InvoiceSettled', invoice.id);
    const [processingDelivery] = fake.deliveriesOf('InvoiceProcessing', invoice.id);
    const replay = await fake.deliver(settledDelivery!.body);
    const redelivery = await fake.redeliver(settledDelivery!);
    const stale = await fake.redeliver(processingDelivery!);
    for (const answer of [replay, redelivery, stale]) {
      expect(answer).toMatchObject({ status: 200, answer: { code: 0, data: { status: 'success', duplicate: true } } });
    }
    expect(await state(row.id)).toEqual({ status: 'success', packages: 1, events: 2 });
  });

  it('activates a payment whose notifications were lost at the next reconciliation, and counts it', async () => {
    const metric = async (family: string, labels: Record<string, string>) =>
      sampleValue(parseExposition((await httpClient(app.url).get('/metrics')).text), family, labels);
    const fixed = { gateway: 'btcpay', result: 'changed' };
    const duplicates = { gateway: 'btcpay', result: 'duplicate' };
    const [fixedBefore, duplicatesBefore] = [
      await metric('mutenet_payment_reconcile_checks_total', fixed),
      await metric('mutenet_payment_notifications_total', duplicates),
    ];
    const { row, invoice } = await payWithBtcpay();
    fake.loseNotifications = true;
    await fake.settle(invoice.id);
    expect(await state(row.id)).toEqual({ status: 'paying', packages: 0, events: 0 });
    app.clock.advance(RECONCILE_AFTER_MS + 1000);
    expect(await app.app.payments.reconcile()).toBeGreaterThanOrEqual(1);
    expect(await state(row.id)).toEqual({ status: 'success', packages: 1, events: 1 });
    expect(await metric('mutenet_payment_reconcile_checks_total', fixed)).toBeGreaterThanOrEqual(fixedBefore + 1);
    // Its order settled, the payment is asked about no more.
    expect(await app.app.payments.reconcile()).toBe(0);
    // The notifications that finally arrive are the same events.
    fake.loseNotifications = false;
    const late = await fake.redeliver(fake.deliveriesOf('InvoiceSettled', invoice.id)[0]!);
    expect(late).toMatchObject({ status: 200, answer: { data: { duplicate: true } } });
    expect(await state(row.id)).toEqual({ status: 'success', packages: 1, events: 1 });
    expect(await metric('mutenet_payment_notifications_total', duplicates)).toBe(duplicatesBefore + 1);
  });

  it('ends the package when the operator takes back a settlement in BTCPay (invalid after settled)', async () => {
    const { row, invoice } = await payWithBtcpay();
    await fake.markSettled(invoice.id);
    expect(await state(row.id)).toEqual({ status: 'success', packages: 1, events: 1 });
    await fake.markInvalid(invoice.id);
    expect(fake.deliveriesOf('InvoiceInvalid', invoice.id)[0]).toMatchObject({
      status: 200,
      answer: { data: { status: 'rejected', applied: true } },
    });
    expect((await state(row.id)).status).toBe('rejected');
    const ended = await app.app.db
      .selectFrom('user_packages')
      .select('ends_at')
      .where('order_id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(ended.ends_at).toBeLessThanOrEqual(app.clock.now());
  });

  it('fails an order whose payment never confirmed', async () => {
    const { row, invoice } = await payWithBtcpay();
    await fake.payUnconfirmed(invoice.id);
    await fake.failConfirmations(invoice.id);
    expect(await state(row.id)).toEqual({ status: 'failed', packages: 0, events: 2 });
  });

  it('refunds from the panel through BTCPay, then ends the package; nothing changes when BTCPay fails', async () => {
    const { row, invoice, no } = await payWithBtcpay();
    await fake.settle(invoice.id);
    fake.mode = 'error';
    await expect(app.app.payments.refund(no)).rejects.toBeInstanceOf(RefundFailed);
    expect((await state(row.id)).status).toBe('success');
    fake.mode = 'normal';
    const refunded = await app.app.payments.refund(no);
    expect(refunded?.status).toBe('refunded');
    const [pullPayment] = fake.pullPayments.filter((pp) => pp.invoiceId === invoice.id);
    expect(pullPayment).toMatchObject({ refundVariant: 'CurrentRate', name: `Refund ${no}` });
    const ended = await app.app.db
      .selectFrom('user_packages')
      .select('ends_at')
      .where('order_id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(ended.ends_at).toBeLessThanOrEqual(app.clock.now());
  });

  for (const mode of ['error', 'hang'] as const) {
    it(`tells the customer in their language when BTCPay ${mode === 'error' ? 'answers 500' : 'never answers'}, and the order stays payable`, async () => {
      const { api, token, no, row } = await customerOrder('USD', 'pt-BR');
      fake.mode = mode;
      const answer = await api.post(`/payment/checkout/${no}/pay`, { form: { method: 'btcpay' }, token });
      expect(answer.body).toMatchObject({ code: 2008, msg: MESSAGES.PAYMENT_GATEWAY_UNAVAILABLE['pt-BR'] });
      expect((await api.get(`/payment/checkout/${no}`, { token })).body.data.payable).toBe(true);
      fake.mode = 'normal';
      const retried = await api.post(`/payment/checkout/${no}/pay`, { form: { method: 'btcpay' }, token });
      expect(retried.body).toMatchObject({ code: 0, data: { redirect: fake.invoiceOf(no).checkoutLink } });
      expect((await state(row.id)).status).toBe('paying');
    }, 20_000);
  }
});

/** Two instances of one installation, as behind a load balancer (see scale/two-instances.test.ts). */
describe.runIf(POSTGRES_URL && REDIS_URL)('BTCPay notifications on two instances', () => {
  let a: TestApp;
  let b: TestApp;
  let fake: FakeBtcpay;
  let seeded: SeededCatalog;

  beforeAll(async () => {
    fake = await startFakeBtcpay({ storeId: STORE_ID, apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET });
    a = await startTestApp({ database: 'postgres', redis: true, env: btcpayEnv(fake) });
    b = await startTestApp({ redis: true, env: btcpayEnv(fake), joining: a });
    seeded = await seedCatalog(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await fake?.close();
  });

  it('activates once when fifty copies of the settlement reach both instances at once', async () => {
    const { api, token, no, order } = await newCustomerOrder(a, {
      email: 'fifty@example.com',
      pkgId: seeded.traffic30,
      currency: 'USD',
    });
    expect((await api.post(`/payment/checkout/${no}/pay`, { form: { method: 'btcpay' }, token })).body.code).toBe(0);
    const invoice = fake.invoiceOf(no);
    await fake.payUnconfirmed(invoice.id); // no webhook URL yet: recorded only
    await fake.confirm(invoice.id);
    const raw = JSON.stringify(fake.deliveriesOf('InvoiceSettled', invoice.id)[0]!.body);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        httpClient((i % 2 ? b : a).url).post('/payment/notify/btcpay', {
          raw: { body: raw, type: 'application/json' },
          headers: { 'BTCPay-Sig': signBtcpay(WEBHOOK_SECRET, raw) },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    expect(answers.filter((answer) => answer.body.data.applied)).toHaveLength(1);
    expect(answers.every((answer) => answer.body.data.status === 'success')).toBe(true);
    expect(await paymentState(a, order.id)).toEqual({ status: 'success', packages: 1, events: 1 });
  }, 30_000);

  it('reconciles on both instances at once: the gateway is asked once, and the order activated once', async () => {
    const { api, token, no, order } = await newCustomerOrder(a, {
      email: 'both@example.com',
      pkgId: seeded.traffic30,
      currency: 'USD',
    });
    expect((await api.post(`/payment/checkout/${no}/pay`, { form: { method: 'btcpay' }, token })).body.code).toBe(0);
    const invoice = fake.invoiceOf(no);
    // Paid, and every notification lost (no webhook address is set for this fake).
    await fake.settle(invoice.id);
    a.clock.advance(RECONCILE_AFTER_MS + 1000);
    const asked = () => fake.requests.filter((request) => request.path.endsWith(`/invoices/${invoice.id}`)).length;
    const before = asked();
    const [onA, onB] = await Promise.all([a.app.payments.reconcile(), b.app.payments.reconcile()]);
    expect(onA + onB).toBe(1);
    expect(asked() - before).toBe(1);
    expect(await paymentState(a, order.id)).toEqual({ status: 'success', packages: 1, events: 1 });
  }, 30_000);
});
