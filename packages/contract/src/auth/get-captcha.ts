import * as z from 'zod/mini';
import { endpoint } from '../endpoint.js';
import { envelopeOf } from '../envelope.js';

export const CaptchaSchema = z.object({
  /** A `data:` URI of the image. */
  imgDat: z.string(),
  imgId: z.string(),
});
export type Captcha = z.infer<typeof CaptchaSchema>;

export const getCaptcha = endpoint({
  method: 'GET',
  path: '/mutenet/verify/code/img',
  response: envelopeOf(CaptchaSchema),
});
