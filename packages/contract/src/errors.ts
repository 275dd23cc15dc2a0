/**
 * Every error the server can answer with. `code` goes into the envelope, `status` is the HTTP status,
 * and the key itself names the message in `messages.ts`. Envelope errors about what the customer typed
 * answer HTTP 200, as the panel shows their `msg` rather than the generic text of an HTTP status.
 */
export const ERRORS = {
  ORDER_UNFINISHED: { code: 3, status: 200 },
  PACKAGE_ACTIVE: { code: 4, status: 200 },

  BAD_REQUEST: { code: 400, status: 400 },
  UNAUTHORIZED: { code: 401, status: 401 },
  FORBIDDEN: { code: 403, status: 403 },
  NOT_FOUND: { code: 404, status: 404 },
  METHOD_NOT_ALLOWED: { code: 405, status: 405 },
  PAYLOAD_TOO_LARGE: { code: 413, status: 413 },
  UNSUPPORTED_MEDIA_TYPE: { code: 415, status: 415 },
  TOO_MANY_REQUESTS: { code: 429, status: 429 },
  INTERNAL: { code: 500, status: 500 },
  SERVICE_UNAVAILABLE: { code: 503, status: 503 },

  ALL_REQUIRED: { code: 1001, status: 200 },
  EMAIL_FORMAT: { code: 1002, status: 200 },
  PASSWORD_FORMAT: { code: 1003, status: 200 },
  PASSWORD_DIFFERENT: { code: 1004, status: 200 },
  NEW_PASSWORD_DIFFERENT: { code: 1005, status: 200 },
  PASSWORD_BLANK: { code: 1006, status: 200 },
  EMAIL_CODE_REQUIRED: { code: 1007, status: 200 },
  PICTURE_CODE_FIRST: { code: 1008, status: 200 },
  USERNAME_INVALID: { code: 1009, status: 200 },
  INVITE_CODE_INVALID: { code: 1010, status: 200 },
  CAPTCHA_INVALID: { code: 1011, status: 200 },
  EMAIL_CODE_INVALID: { code: 1012, status: 200 },
  EMAIL_CODE_TOO_SOON: { code: 1013, status: 200 },
  EMAIL_TAKEN: { code: 1014, status: 200 },
  LOGIN_FAILED: { code: 1015, status: 200 },
  OLD_PASSWORD_WRONG: { code: 1016, status: 200 },
  ACCOUNT_DISABLED: { code: 1017, status: 200 },

  PACKAGE_NOT_FOUND: { code: 2001, status: 200 },
  CURRENCY_NOT_AVAILABLE: { code: 2002, status: 200 },
  ORDER_NOT_FOUND: { code: 2003, status: 200 },
  ORDER_NOT_CANCELLABLE: { code: 2004, status: 200 },
  ORDER_NOT_PAYABLE: { code: 2005, status: 200 },
  PAYMENT_METHOD_UNAVAILABLE: { code: 2006, status: 200 },
  PAYMENT_ACTION_REFUSED: { code: 2007, status: 200 },
  PAYMENT_GATEWAY_UNAVAILABLE: { code: 2008, status: 200 },

  SECOND_FACTOR_REQUIRED: { code: 6001, status: 200 },
  TOTP_CODE_INVALID: { code: 6002, status: 200 },
  TOTP_ALREADY_ENROLLED: { code: 6003, status: 200 },
  LAST_OWNER: { code: 6004, status: 200 },
  /** A node setting its protocol, transport or TLS does not take, or one it lacks; `data` names the field. */
  NODE_SETTING_INVALID: { code: 6101, status: 200 },
  ORDER_NOT_UNPAID: { code: 2009, status: 200 },
  ORDER_NOT_PAID: { code: 2010, status: 200 },
  REFUND_FAILED: { code: 2011, status: 200 },
  /** The operator named a currency that does not exist; `data.currency` names it. */
  CURRENCY_NOT_FOUND: { code: 2101, status: 200 },
  CURRENCY_EXISTS: { code: 2102, status: 200 },
  /** `data.currency` names the price whose old amount is below its real one. */
  PRICE_OLD_BELOW_REAL: { code: 2103, status: 200 },
  PRICE_CURRENCY_TWICE: { code: 2104, status: 200 },
  /** An operator's add-days or add-traffic for a customer with no running package. */
  CUSTOMER_NO_RUNNING_PACKAGE: { code: 6201, status: 200 },
  PASSKEY_INVALID: { code: 6005, status: 200 },
  PASSKEY_NAME_INVALID: { code: 6006, status: 200 },
  LAST_SECOND_FACTOR: { code: 6007, status: 200 },
} as const satisfies Record<string, { code: number; status: number }>;

export type ErrorKey = keyof typeof ERRORS;

export function isErrorKey(value: unknown): value is ErrorKey {
  return typeof value === 'string' && Object.hasOwn(ERRORS, value);
}

/** The key of an envelope code, for clients that branch on codes. */
export const ERROR_CODE = Object.fromEntries(Object.entries(ERRORS).map(([key, { code }]) => [key, code])) as {
  [K in ErrorKey]: (typeof ERRORS)[K]['code'];
};
