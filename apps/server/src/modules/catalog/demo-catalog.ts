import { GIB } from '../../lib/units.js';
import type { NewPrice } from './catalog.repository.js';

const price = (currency: string, old: number, real: number): NewPrice => ({
  currency,
  price_minor: old,
  real_minor: real,
});

/** The catalogue `npm start` puts into an empty database, so that a first run has something to buy. */
export const DEMO_CATALOG = {
  currencies: [
    { code: 'USD', name: 'US Dollar', decimals: 2, sort: 0 },
    { code: 'BRL', name: 'Real brasileiro', decimals: 2, sort: 1 },
  ],
  plans: [
    {
      group: 'traffic' as const,
      names: { en: 'Traffic 100 GB', 'pt-BR': 'Tráfego 100 GB', 'zh-Hans': '流量 100 GB' },
      contents: {
        en: '<p>100 GB to use within the period.</p><ul><li>All nodes</li><li>Up to 3 devices</li></ul>',
        'pt-BR': '<p>100 GB para usar dentro do período.</p><ul><li>Todos os nós</li><li>Até 3 dispositivos</li></ul>',
        'zh-Hans': '<p>有效期内可用 100 GB 流量。</p><ul><li>全部节点</li><li>最多 3 台设备</li></ul>',
      },
      sort: 0,
      packages: [
        {
          label: '100 GB / 30 days',
          days: 30,
          trafficBytes: 100 * GIB,
          prices: [price('USD', 600, 499), price('BRL', 3000, 2490)],
        },
        {
          label: '100 GB / 90 days',
          days: 90,
          trafficBytes: 100 * GIB,
          prices: [price('USD', 800, 699), price('BRL', 4000, 3490)],
        },
      ],
    },
    {
      group: 'traffic' as const,
      names: { en: 'Traffic 500 GB', 'pt-BR': 'Tráfego 500 GB', 'zh-Hans': '流量 500 GB' },
      contents: {
        en: '<p>500 GB for heavy use.</p><ul><li>All nodes</li><li>Up to 5 devices</li></ul>',
        'pt-BR': '<p>500 GB para uso intenso.</p><ul><li>Todos os nós</li><li>Até 5 dispositivos</li></ul>',
        'zh-Hans': '<p>500 GB，适合大量使用。</p><ul><li>全部节点</li><li>最多 5 台设备</li></ul>',
      },
      sort: 1,
      packages: [
        {
          label: '500 GB / 90 days',
          days: 90,
          trafficBytes: 500 * GIB,
          prices: [price('USD', 1999, 1599), price('BRL', 9990, 7990)],
        },
      ],
    },
    {
      group: 'durational' as const,
      names: { en: 'Unlimited time plan', 'pt-BR': 'Plano por período', 'zh-Hans': '周期套餐' },
      contents: {
        en: '<p>200 GB every 30 days, renewed automatically for the whole period.</p>',
        'pt-BR': '<p>200 GB a cada 30 dias, renovados automaticamente durante todo o período.</p>',
        'zh-Hans': '<p>每 30 天 200 GB，在整个周期内自动重置。</p>',
      },
      sort: 2,
      packages: [
        {
          label: '30 days',
          days: 30,
          trafficBytes: 200 * GIB,
          prices: [price('USD', 799, 599), price('BRL', 3990, 2990)],
        },
        {
          label: '90 days',
          days: 90,
          trafficBytes: 200 * GIB,
          prices: [price('USD', 2397, 1599), price('BRL', 11970, 7990)],
        },
        {
          label: '365 days',
          days: 365,
          trafficBytes: 200 * GIB,
          prices: [price('USD', 9588, 5499), price('BRL', 47880, 27490)],
        },
      ],
    },
  ],
};
