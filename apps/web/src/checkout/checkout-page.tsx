import {
  type Checkout,
  getCheckout,
  type OrderStatus,
  OrderStatusSchema,
  type PaymentMethod,
  type SandboxAction,
  sandboxAction,
  startPayment,
} from '@mutenet/contract';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import * as z from 'zod/mini';
import { ORDER_STATUS_LABELS } from '../i18n/order-statuses';
import { packageTypeText } from '../i18n/package-types';
import { formatMoney } from '../lib/money';
import { CheckoutError, type CheckoutSession, callCheckout } from './checkout-api';
import { parseCheckoutPath, readCheckoutToken } from './checkout-location';
import { CHECKOUT_TEXT, type CheckoutText } from './checkout-text';

/** Where the page leads back to: the panel, under its base path. */
export const PANEL_LOGIN = '/person/login';
export const PANEL_ORDERS = '/person/orders';
export const panelOrderDetails = (orderNo: string) => `/person/status/${encodeURIComponent(orderNo)}`;

const SANDBOX_BUTTONS: readonly { action: SandboxAction; text: 'approve' | 'decline' | 'pending'; tone: string }[] = [
  { action: 'approve', text: 'approve', tone: 'co-button--success' },
  { action: 'decline', text: 'decline', tone: 'co-button--danger' },
  { action: 'pending', text: 'pending', tone: 'co-button--neutral' },
];

type Load =
  | { kind: 'loading' }
  | { kind: 'no-session' }
  | { kind: 'bad-link' }
  | { kind: 'failed'; message: string }
  | { kind: 'ready'; checkout: Checkout };

/** What the customer is doing once the order is on screen. */
type Step = { kind: 'choose' } | { kind: 'redirecting' } | { kind: 'sandbox' } | { kind: 'done'; status: OrderStatus };

export type CheckoutPageProps = {
  pathname: string;
  cookie: string;
  /** Goes to a gateway's own page (a real gateway's `redirect`). */
  redirect?: (url: string) => void;
};

function errorText(error: unknown, text: CheckoutText): string {
  if (!(error instanceof CheckoutError)) return text.connectionError;
  if (error.message) return error.message;
  if (error.kind === 'network') return text.networkError;
  if (error.kind === 'invalid') return text.invalidResponse;
  return text.connectionError;
}

/**
 * The hosted checkout, `/shopDetails/{lang}/{orderNo}`: the order, its payment methods, and for the built-in sandbox
 * the buttons that settle the payment. It acts with the session the panel left in the `token` cookie.
 */
export function CheckoutPage({ pathname, cookie, redirect = (url) => window.location.assign(url) }: CheckoutPageProps) {
  const [{ language, orderNo }] = useState(() => parseCheckoutPath(pathname));
  const [token] = useState(() => readCheckoutToken(cookie));
  const text = CHECKOUT_TEXT[language];
  const [load, setLoad] = useState<Load>(() =>
    !orderNo ? { kind: 'bad-link' } : !token ? { kind: 'no-session' } : { kind: 'loading' },
  );
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const stepHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    document.documentElement.lang = language;
    document.title = `${text.title} · ${text.brand}`;
  }, [language, text]);

  const session: CheckoutSession | null = token ? { token, language } : null;

  const fail = useCallback(
    (error: unknown): string | null => {
      if (error instanceof CheckoutError && error.kind === 'unauthorized') {
        setLoad({ kind: 'no-session' });
        return null;
      }
      return errorText(error, text);
    },
    [text],
  );

  const fetchCheckout = useCallback(async () => {
    if (!orderNo || !token) return;
    setLoad({ kind: 'loading' });
    try {
      const checkout = await callCheckout(getCheckout, { token, language }, { params: { orderNo } });
      setLoad({ kind: 'ready', checkout });
    } catch (error) {
      const message = fail(error);
      if (message !== null) setLoad({ kind: 'failed', message });
    }
  }, [orderNo, token, language, fail]);

  useEffect(() => {
    void fetchCheckout();
  }, [fetchCheckout]);

  // A new step takes the focus to its heading, so that keyboard and screen-reader users land on it.
  useEffect(() => {
    if (step.kind === 'sandbox' || step.kind === 'done') stepHeading.current?.focus();
  }, [step.kind]);

  const choose = async (method: PaymentMethod) => {
    if (!session || !orderNo || busy) return;
    setBusy(true);
    setActionError(null);
    try {
      const { redirect: url } = await callCheckout(startPayment, session, {
        params: { orderNo },
        body: { method: method.id },
      });
      if (url) {
        setStep({ kind: 'redirecting' });
        redirect(url);
      } else {
        setStep({ kind: 'sandbox' });
      }
    } catch (error) {
      setActionError(fail(error));
    } finally {
      setBusy(false);
    }
  };

  const act = async (action: SandboxAction) => {
    if (!session || !orderNo || busy) return;
    setBusy(true);
    setActionError(null);
    try {
      const result = await callCheckout(sandboxAction, session, { params: { orderNo, action } });
      const status = z.catch(OrderStatusSchema, 'unused').parse(result.status);
      setLoad((current) =>
        current.kind === 'ready'
          ? { kind: 'ready', checkout: { ...current.checkout, order: { ...current.checkout.order, status } } }
          : current,
      );
      setStep({ kind: 'done', status });
    } catch (error) {
      setActionError(fail(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="co-page">
      <header className="co-header">
        <span className="co-brand">{text.brand}</span>
      </header>
      <main id="main" className="co-main" aria-busy={load.kind === 'loading' || busy}>
        <h1 className="co-title">{text.title}</h1>
        {load.kind === 'loading' ? (
          <p className="co-status" role="status" data-testid="checkout-loading">
            <span className="co-spinner" aria-hidden="true" />
            {text.loading}
          </p>
        ) : null}
        {load.kind === 'no-session' ? (
          <Notice title={text.noSessionTitle} testId="checkout-no-session">
            <p>{text.noSessionText}</p>
            <a className="co-button co-button--primary" href={PANEL_LOGIN}>
              {text.logIn}
            </a>
          </Notice>
        ) : null}
        {load.kind === 'bad-link' ? (
          <Notice title={text.badLinkTitle} testId="checkout-bad-link">
            <p>{text.badLinkText}</p>
            <a className="co-button co-button--primary" href={PANEL_ORDERS}>
              {text.myOrders}
            </a>
          </Notice>
        ) : null}
        {load.kind === 'failed' ? (
          <Notice title={text.errorTitle} testId="checkout-failed">
            <p role="alert">{load.message}</p>
            <div className="co-actions">
              <button type="button" className="co-button co-button--primary" onClick={() => void fetchCheckout()}>
                {text.retry}
              </button>
              {orderNo ? (
                <a className="co-button co-button--neutral" href={panelOrderDetails(orderNo)}>
                  {text.backToOrder}
                </a>
              ) : null}
            </div>
          </Notice>
        ) : null}
        {load.kind === 'ready' ? (
          <>
            <OrderSummary checkout={load.checkout} text={text} language={language} />
            {step.kind === 'choose' ? (
              <section className="co-card" aria-labelledby="co-methods-title" data-testid="checkout-methods">
                <h2 id="co-methods-title">{load.checkout.payable ? text.methodsTitle : text.status}</h2>
                {!load.checkout.payable ? (
                  <p data-testid="checkout-not-payable">{text.notPayable}</p>
                ) : load.checkout.methods.length === 0 ? (
                  <p>{text.noMethods}</p>
                ) : (
                  <div className="co-actions co-actions--stack">
                    {load.checkout.methods.map((method) => (
                      <button
                        key={method.id}
                        type="button"
                        className="co-button co-button--primary"
                        disabled={busy}
                        onClick={() => void choose(method)}
                        data-testid={`checkout-method-${method.id}`}
                      >
                        {method.name}
                      </button>
                    ))}
                  </div>
                )}
              </section>
            ) : null}
            {step.kind === 'redirecting' ? (
              <p className="co-status" role="status">
                <span className="co-spinner" aria-hidden="true" />
                {text.redirecting}
              </p>
            ) : null}
            {step.kind === 'sandbox' ? (
              <section className="co-card" aria-labelledby="co-sandbox-title" data-testid="checkout-sandbox">
                <h2 id="co-sandbox-title" ref={stepHeading} tabIndex={-1}>
                  {text.sandboxTitle}
                </h2>
                <p>{text.sandboxHint}</p>
                <div className="co-actions">
                  {SANDBOX_BUTTONS.map(({ action, text: key, tone }) => (
                    <button
                      key={action}
                      type="button"
                      className={`co-button ${tone}`}
                      disabled={busy}
                      onClick={() => void act(action)}
                      data-testid={`sandbox-${action}`}
                    >
                      {text[key]}
                    </button>
                  ))}
                </div>
              </section>
            ) : null}
            {step.kind === 'done' ? (
              <section className="co-card" aria-labelledby="co-result-title" data-testid="checkout-result">
                <h2 id="co-result-title" ref={stepHeading} tabIndex={-1}>
                  {text.resultTitle}
                </h2>
                <p role="status">
                  {text.resultText}{' '}
                  <strong data-testid="checkout-result-status" data-status={step.status}>
                    {ORDER_STATUS_LABELS[language][step.status]}
                  </strong>
                </p>
              </section>
            ) : null}
            {actionError ? (
              <p className="co-error" role="alert" data-testid="checkout-error">
                {actionError}
              </p>
            ) : null}
            <p className="co-back">
              <a href={panelOrderDetails(load.checkout.order.no)} data-testid="checkout-back">
                {text.backToOrder}
              </a>
            </p>
          </>
        ) : null}
      </main>
    </div>
  );
}

function Notice({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <section className="co-card" aria-labelledby={`${testId}-title`} data-testid={testId}>
      <h2 id={`${testId}-title`}>{title}</h2>
      {children}
    </section>
  );
}

function OrderSummary({
  checkout,
  text,
  language,
}: {
  checkout: Checkout;
  text: CheckoutText;
  language: keyof typeof ORDER_STATUS_LABELS;
}) {
  const { order } = checkout;
  const rows: [string, ReactNode, string][] = [
    [text.product, order.pdName, 'product'],
    [text.type, packageTypeText(order.pkgType, language), 'type'],
    [text.amount, formatMoney(order.totalPrice, order.currency, language), 'amount'],
    [
      text.status,
      <span key="status" data-status={order.status}>
        {ORDER_STATUS_LABELS[language][order.status]}
      </span>,
      'status',
    ],
    [
      text.orderNo,
      <span key="no" className="co-mono">
        {order.no}
      </span>,
      'no',
    ],
  ];
  return (
    <section className="co-card" aria-labelledby="co-order-title" data-testid="checkout-order">
      <h2 id="co-order-title">{text.orderTitle}</h2>
      <dl className="co-list">
        {rows.map(([label, value, key]) => (
          <div key={key} className="co-row">
            <dt>{label}</dt>
            <dd data-testid={`checkout-${key}`}>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
