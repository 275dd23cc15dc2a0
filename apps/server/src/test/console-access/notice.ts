import { consoleArea } from './area.js';

const ADMIN = '/admin/api';

/** The console's notice: read, set and clear (the clear last, as it ends the round's notice). */
export const noticeArea = consoleArea({
  async targets(app, unique) {
    await app.app.notice.set({ en: `Notice ${unique}`, 'pt-BR': `Aviso ${unique}`, 'zh-Hans': `公告 ${unique}` });
    return {};
  },
  routes: {
    [`GET ${ADMIN}/notice`]: { permission: 'notice.write', call: () => ({ method: 'GET', path: '/api/notice' }) },
    [`PUT ${ADMIN}/notice`]: {
      permission: 'notice.write',
      call: () => ({ method: 'PUT', path: '/api/notice', json: { en: 'Hijacked' } }),
    },
    [`DELETE ${ADMIN}/notice`]: {
      permission: 'notice.write',
      call: () => ({ method: 'DELETE', path: '/api/notice' }),
    },
  },
});
