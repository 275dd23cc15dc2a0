import type { NodeInput } from '../modules/nodes/nodes.service.js';

export type NodeSpec = Omit<NodeInput, 'labels' | 'host' | 'visible' | 'names' | 'rate'> & {
  name: string;
  rate?: number;
};

/** One node of each protocol, configured as operators do; the tests and the benchmark both use them. */
export const NODE_SPECS: NodeSpec[] = [
  {
    name: 'Reality',
    protocol: 'vless',
    port: 443,
    rate: 1.5,
    settings: {
      network: 'tcp',
      tls: 'reality',
      sni: 'www.microsoft.com',
      flow: 'xtls-rprx-vision',
      fingerprint: 'chrome',
      realityPublicKey: 'Z84J2IelR9ch3k8VtlVhhs5ycBUlXA7wHBWcBrjqnAw',
      realityPrivateKey: 'SMTqxmd9bZbLaykpNiHlRxpP9Y0wGcN3K6a8ZS7G2Hk',
      realityShortId: '6ba85179e30d4fc2',
    },
  },
  {
    name: 'VMess WS',
    protocol: 'vmess',
    port: 8443,
    settings: { network: 'ws', path: '/ws', hostHeader: 'cdn.example.com', tls: 'tls' },
  },
  { name: 'Trojan', protocol: 'trojan', port: 9443, settings: { network: 'tcp', tls: 'tls' } },
  {
    name: 'SS 2022',
    protocol: 'shadowsocks',
    port: 8388,
    settings: { network: 'tcp', tls: 'none', cipher: '2022-blake3-aes-128-gcm' },
  },
  {
    name: 'Hy2',
    protocol: 'hysteria2',
    port: 443,
    settings: { network: 'tcp', tls: 'tls', obfsPassword: 'obfs-secret' },
  },
  { name: 'TUIC', protocol: 'tuic', port: 10443, settings: { network: 'tcp', tls: 'tls', congestionControl: 'bbr' } },
];
