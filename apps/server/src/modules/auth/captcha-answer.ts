import { getCaptcha, messageOf, type RequestLanguage } from '@mutenet/contract';
import { responseSerializerOf } from '../../lib/response-serializer.js';
import { CAPTCHA_DATA_URI_PREFIX } from '../../plugins/app/captcha-image.js';

/** The serializer the route's compiler makes, from the contract's response schema. */
const serialize = responseSerializerOf(getCaptcha.response);
/** The picture's field as the serializer writes it with only the URI's fixed start, less the closing quote. */
const PICTURE_START = `"imgDat":${JSON.stringify(CAPTCHA_DATA_URI_PREFIX).slice(0, -1)}`;

export const CAPTCHA_ANSWER_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json; charset=utf-8',
});

/**
 * A captcha's answer, the contract's envelope as its serializer writes it, in one buffer: the envelope is serialized
 * with the picture's `data:` URI cut to its fixed start, and the picture's base64 goes in after that start as bytes.
 * JSON escapes nothing in base64, so these are the serializer's own bytes for the whole URI (a test holds them to it);
 * the serializer would scan the 2–5 KB of base64 for characters to escape and copy it twice.
 */
export function captchaAnswer(language: RequestLanguage, imgId: string, svgBase64: string): Buffer {
  const envelope = serialize({
    code: 0,
    msg: messageOf('OK', language),
    data: { imgId, imgDat: CAPTCHA_DATA_URI_PREFIX },
  });
  const start = envelope.indexOf(PICTURE_START);
  if (start === -1) throw new Error('the captcha envelope has no picture field where it was looked for');
  const head = envelope.slice(0, start + PICTURE_START.length);
  const tail = envelope.slice(start + PICTURE_START.length);
  const headBytes = Buffer.byteLength(head);
  const body = Buffer.allocUnsafe(headBytes + svgBase64.length + Buffer.byteLength(tail));
  body.write(head, 0);
  body.write(svgBase64, headBytes, 'latin1');
  body.write(tail, headBytes + svgBase64.length);
  return body;
}
