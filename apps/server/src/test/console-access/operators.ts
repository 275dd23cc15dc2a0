import { OPERATOR_PASSWORD } from '../operators.js';
import { consoleArea } from './area.js';

const ADMIN = '/admin/api';

/** The operator's own session and passkeys, the owners' operators API and the audit log. */
export const operatorsArea = consoleArea({
  async targets(app, unique) {
    const { operator } = await app.app.operators.add(`target.${unique}@example.com`, 'support');
    return { operator: operator.id };
  },
  routes: {
    [`GET ${ADMIN}/session`]: { permission: null, call: () => ({ method: 'GET', path: '/api/session' }) },
    [`DELETE ${ADMIN}/session`]: { permission: null, call: () => ({ method: 'DELETE', path: '/api/session' }) },
    [`POST ${ADMIN}/session/password`]: {
      permission: null,
      call: () => ({
        method: 'POST',
        path: '/api/session/password',
        json: { current: OPERATOR_PASSWORD, next: 'Hijacked789' },
      }),
    },
    [`POST ${ADMIN}/session/totp`]: { permission: null, call: () => ({ method: 'POST', path: '/api/session/totp' }) },
    [`POST ${ADMIN}/session/totp/confirm`]: {
      permission: null,
      call: () => ({ method: 'POST', path: '/api/session/totp/confirm', json: { code: '123456' } }),
    },
    // The operator's own passkeys. A registration needs the options of the caller's own session, made by no target:
    // the add is written with a browser's answer of the right shape, which a session that got through would have
    // verified (and refused as PASSKEY_INVALID); the removal names a passkey id, the caller's own being the only
    // ones it could remove.
    [`GET ${ADMIN}/session/passkeys`]: {
      permission: null,
      call: () => ({ method: 'GET', path: '/api/session/passkeys' }),
    },
    [`POST ${ADMIN}/session/passkeys/options`]: {
      permission: null,
      call: () => ({ method: 'POST', path: '/api/session/passkeys/options' }),
    },
    [`POST ${ADMIN}/session/passkeys`]: {
      permission: null,
      call: () => ({
        method: 'POST',
        path: '/api/session/passkeys',
        json: {
          name: 'Intruder',
          response: {
            id: 'AAAA',
            rawId: 'AAAA',
            type: 'public-key',
            response: { clientDataJSON: 'e30', attestationObject: 'oA' },
            clientExtensionResults: {},
          },
        },
      }),
    },
    [`DELETE ${ADMIN}/session/passkeys/:id`]: {
      permission: null,
      call: () => ({ method: 'DELETE', path: '/api/session/passkeys/1' }),
    },
    [`GET ${ADMIN}/operators`]: {
      permission: 'operators.manage',
      call: () => ({ method: 'GET', path: '/api/operators' }),
    },
    [`POST ${ADMIN}/operators`]: {
      permission: 'operators.manage',
      call: ({ operator }) => ({
        method: 'POST',
        path: '/api/operators',
        json: { email: `intruder.${operator}.${Math.random().toString(36).slice(2)}@example.com`, role: 'owner' },
      }),
    },
    [`PUT ${ADMIN}/operators/:id`]: {
      permission: 'operators.manage',
      call: ({ operator }) => ({ method: 'PUT', path: `/api/operators/${operator}`, json: { role: 'owner' } }),
    },
    [`POST ${ADMIN}/operators/:id/reset-password`]: {
      permission: 'operators.manage',
      call: ({ operator }) => ({ method: 'POST', path: `/api/operators/${operator}/reset-password` }),
    },
    [`GET ${ADMIN}/audit`]: { permission: 'audit.read', call: () => ({ method: 'GET', path: '/api/audit' }) },
  },
});
