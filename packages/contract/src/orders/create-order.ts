import * as z from 'zod/mini';
import { CURRENCY_CODE_PATTERN } from '../catalog/catalog.schema.js';
import { endpoint } from '../endpoint.js';
import { envelopeOf } from '../envelope.js';
import { firstFailing, formField, trimmedField } from '../rules.js';

const ID_PATTERN = /^[1-9]\d{0,8}$/;

/** The price is never taken from the client: only the package and the currency. */
export const CreateOrderBodySchema = z.pipe(
  z.object({ pkgId: trimmedField, currency: trimmedField, force: formField }).check(
    firstFailing([
      [(v) => ID_PATTERN.test(v.pkgId), 'PACKAGE_NOT_FOUND'],
      [(v) => CURRENCY_CODE_PATTERN.test(v.currency), 'CURRENCY_NOT_AVAILABLE'],
      [(v) => ['', '0', '1'].includes(v.force), 'BAD_REQUEST'],
    ]),
  ),
  z.transform((v) => ({ pkgId: Number(v.pkgId), currency: v.currency, force: v.force === '1' })),
);
export type CreateOrderBody = z.input<typeof CreateOrderBodySchema>;

export const CreatedOrderSchema = z.object({ orderNo: z.string() });
/** Code 3 (an unfinished order for the same plan) carries that order. */
export const UnfinishedOrdersSchema = z.array(z.object({ no: z.string() }));

export const createOrder = endpoint({
  method: 'POST',
  path: '/mutenet/user/order/create',
  body: CreateOrderBodySchema,
  response: envelopeOf(z.union([CreatedOrderSchema, UnfinishedOrdersSchema, z.null()])),
});
