/**
 * What a browser gets instead of raw data: a small page saying that the address is a subscription link to import into
 * a client app, with the user's traffic, expiry and node count. Self-contained (no external resource, no script: the
 * server's CSP allows neither), every value escaped.
 */
import type { RequestLanguage } from '@mutenet/contract';
import type { FeedInput, RenderedFeed } from './feed-format.js';

export const FEED_PAGE_CONTENT_TYPE = 'text/html; charset=utf-8';

type PageText = {
  heading: string;
  lead: string;
  howTo: string;
  linkLabel: string;
  usageHeading: string;
  used: string;
  of: (used: string, total: string) => string;
  unlimited: string;
  expires: string;
  never: string;
  nodes: string;
  noNodes: string;
  keepPrivate: string;
};

const TEXT: Record<RequestLanguage, PageText> = {
  en: {
    heading: 'Subscription link',
    lead: 'This address is a subscription link. It is meant to be added to a proxy client app, not opened in a browser.',
    howTo:
      'Copy the link below and add it in your app (for example v2rayN, v2rayNG, Shadowrocket, Clash Verge, FlClash, sing-box or Hiddify) with “Import from URL”, “Add subscription” or “New profile”. The app then keeps the list of nodes up to date by itself.',
    linkLabel: 'Subscription link',
    usageHeading: 'Your plan',
    used: 'Traffic used',
    of: (used, total) => `${used} of ${total}`,
    unlimited: 'unlimited',
    expires: 'Expires',
    never: 'Never',
    nodes: 'Nodes available',
    noNodes: 'No node is available right now: your plan may have expired or its traffic may be used up.',
    keepPrivate: 'Keep this link private: anyone who has it can use your plan.',
  },
  'pt-BR': {
    heading: 'Link de assinatura',
    lead: 'Este endereço é um link de assinatura. Ele deve ser adicionado a um aplicativo cliente de proxy, não aberto no navegador.',
    howTo:
      'Copie o link abaixo e adicione-o no seu aplicativo (por exemplo v2rayN, v2rayNG, Shadowrocket, Clash Verge, FlClash, sing-box ou Hiddify) em “Importar de URL”, “Adicionar assinatura” ou “Novo perfil”. O aplicativo mantém a lista de nós atualizada sozinho.',
    linkLabel: 'Link de assinatura',
    usageHeading: 'Seu plano',
    used: 'Tráfego usado',
    of: (used, total) => `${used} de ${total}`,
    unlimited: 'ilimitado',
    expires: 'Expira em',
    never: 'Nunca',
    nodes: 'Nós disponíveis',
    noNodes: 'Nenhum nó está disponível agora: seu plano pode ter expirado ou o tráfego pode ter acabado.',
    keepPrivate: 'Mantenha este link em sigilo: qualquer pessoa que o tenha pode usar o seu plano.',
  },
  'zh-Hans': {
    heading: '订阅链接',
    lead: '此地址是一个订阅链接，应添加到代理客户端应用中使用，而不是在浏览器中打开。',
    howTo:
      '复制下面的链接，在你的应用（例如 v2rayN、v2rayNG、Shadowrocket、Clash Verge、FlClash、sing-box 或 Hiddify）中通过“从 URL 导入”“添加订阅”或“新建配置”添加。之后应用会自动更新节点列表。',
    linkLabel: '订阅链接',
    usageHeading: '你的套餐',
    used: '已用流量',
    of: (used, total) => `${used} / ${total}`,
    unlimited: '不限',
    expires: '到期时间',
    never: '永不过期',
    nodes: '可用节点',
    noNodes: '当前没有可用节点：你的套餐可能已过期或流量已用完。',
    keepPrivate: '请妥善保管此链接：任何拿到它的人都可以使用你的套餐。',
  },
};

export function renderFeedPage(input: FeedInput, options: { language: RequestLanguage; link: string }): RenderedFeed {
  const { language, link } = options;
  const text = TEXT[language];
  const { upload, download, total, expire } = input.usage;
  const used = Math.max(0, upload) + Math.max(0, download);
  const usedText = text.of(bytes(used, language), total > 0 ? bytes(total, language) : text.unlimited);
  const expiry =
    expire > 0
      ? `<time datetime="${isoDate(expire)}">${escapeHtml(longDate(expire, language))}</time>`
      : escapeHtml(text.never);
  const meter =
    total > 0
      ? `<meter id="usage" min="0" max="${total}" value="${Math.min(used, total)}" aria-label="${escapeHtml(text.used)}"></meter>`
      : '';
  const title = input.title.trim();
  const nodeCount = input.proxies.length;

  const body = `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title ? `${title} · ${text.heading}` : text.heading)}</title>
<style>
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f6f8fa}
main{max-width:36rem;margin:2rem auto;padding:1.5rem;background:#fff;border:1px solid #d0d7de;border-radius:8px}
h1{font-size:1.5rem;margin:0 0 .25rem}h2{font-size:1.125rem;margin:1.5rem 0 .5rem}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input{box-sizing:border-box;width:100%;padding:.5rem;font:inherit;font-family:ui-monospace,monospace;border:1px solid #8c959f;border-radius:6px}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0}dt{font-weight:600}dd{margin:0}
meter{width:100%;height:1rem}.note{color:#57606a;font-size:.875rem}.warn{color:#9a6700}
@media (prefers-color-scheme:dark){body{color:#e6edf3;background:#0d1117}main{background:#161b22;border-color:#30363d}input{background:#0d1117;color:#e6edf3}.note{color:#8d96a0}.warn{color:#d29922}}
</style>
</head>
<body>
<main>
<h1>${escapeHtml(text.heading)}</h1>
${title ? `<p class="note">${escapeHtml(title)}</p>\n` : ''}<p>${escapeHtml(text.lead)}</p>
<p>${escapeHtml(text.howTo)}</p>
<label for="link">${escapeHtml(text.linkLabel)}</label>
<input id="link" type="text" readonly value="${escapeHtml(link)}" spellcheck="false" autocomplete="off">
<p class="note">${escapeHtml(text.keepPrivate)}</p>
<h2>${escapeHtml(text.usageHeading)}</h2>
<dl>
<dt>${escapeHtml(text.used)}</dt><dd>${escapeHtml(usedText)}</dd>
<dt>${escapeHtml(text.expires)}</dt><dd>${expiry}</dd>
<dt>${escapeHtml(text.nodes)}</dt><dd>${nodeCount}</dd>
</dl>
${meter}${nodeCount === 0 ? `<p class="warn" role="status">${escapeHtml(text.noNodes)}</p>\n` : ''}</main>
</body>
</html>
`;
  return { body, contentType: FEED_PAGE_CONTENT_TYPE };
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

function bytes(value: number, language: RequestLanguage): string {
  let amount = Math.max(0, value);
  let unit = 0;
  while (amount >= 1024 && unit < UNITS.length - 1) {
    amount /= 1024;
    unit++;
  }
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: unit === 0 ? 0 : 2 }).format(amount);
  return `${number} ${UNITS[unit]}`;
}

function isoDate(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(0, 10);
}

function longDate(epochSeconds: number, language: RequestLanguage): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(epochSeconds * 1000),
  );
}
