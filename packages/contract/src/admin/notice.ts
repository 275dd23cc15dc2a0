// The console's notice calls.
import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { envelopeOf } from '../envelope.js';

export const NOTICE_TEXT_MAX = 20_000;

const text = z.string().check(z.maxLength(NOTICE_TEXT_MAX));

/** The notice in each language, as stored (HTML, sanitised when saved); null when there is none. */
export const AdminNoticeSchema = z.object({
  texts: z.nullable(z.object({ en: z.string(), 'pt-BR': z.string(), 'zh-Hans': z.string() })),
});
export type AdminNotice = z.infer<typeof AdminNoticeSchema>;

export const adminGetNotice = endpoint({
  method: 'GET',
  path: '/api/notice',
  response: envelopeOf(AdminNoticeSchema),
});

/** Sets the notice: English, and Portuguese and Chinese where they differ from it (as `admin notice set`). */
export const SetNoticeBodySchema = z.strictObject({
  en: text.check(z.minLength(1)),
  'pt-BR': z.optional(text),
  'zh-Hans': z.optional(text),
});
export type SetNoticeBody = z.input<typeof SetNoticeBodySchema>;

export const adminSetNotice = endpoint({
  method: 'PUT',
  path: '/api/notice',
  body: SetNoticeBodySchema,
  response: envelopeOf(AdminNoticeSchema),
});

/** Removes the notice: the dashboard shows none. */
export const adminClearNotice = endpoint({
  method: 'DELETE',
  path: '/api/notice',
  response: envelopeOf(AdminNoticeSchema),
});
