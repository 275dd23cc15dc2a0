import { REQUEST_LANGUAGES } from '@mutenet/contract';
import { describe, expect, it } from 'vitest';
import { ORDER_STATUS_LABELS } from '../i18n/order-statuses';
import { CHECKOUT_TEXT } from './checkout-text';

describe('checkout words', () => {
  it('has every string, and every status label, in every language', () => {
    for (const language of REQUEST_LANGUAGES) {
      for (const [key, text] of Object.entries(CHECKOUT_TEXT[language])) {
        expect(text.length > 0, `${language}: ${key}`).toBe(true);
      }
      for (const [status, label] of Object.entries(ORDER_STATUS_LABELS[language])) {
        expect(label.length > 0, `${language}: ${status}`).toBe(true);
      }
    }
  });
});
