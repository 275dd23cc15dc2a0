import { tlsOf } from '@mutenet/contract';
import { stringify } from 'yaml';
import type { NodeSettings } from './node-settings.js';
import type { Protocol } from './proxy.model.js';

/** What the agents' entries say of a node. */
type AgentNode = { id: number; protocol: Protocol; host: string; settings: NodeSettings };

/** How long an agent waits for the node API, in seconds. */
const TIMEOUT_SECONDS = 30;

/** V2bX's core for each protocol: Xray where it serves it, sing-box for TUIC, the Hysteria core for Hysteria 2. */
const V2BX_CORES: Record<Protocol, 'xray' | 'sing' | 'hysteria2'> = {
  vless: 'xray',
  vmess: 'xray',
  trojan: 'xray',
  shadowsocks: 'xray',
  hysteria2: 'hysteria2',
  tuic: 'sing',
};

/** XrayR's node types (it serves no Hysteria 2 or TUIC); VLESS is its V2ray type with EnableVless. */
const XRAYR_TYPES: Partial<Record<Protocol, 'V2ray' | 'Trojan' | 'Shadowsocks'>> = {
  vless: 'V2ray',
  vmess: 'V2ray',
  trojan: 'Trojan',
  shadowsocks: 'Shadowsocks',
};

/** The certificate the agent serves: a file for TLS (REALITY borrows another site's; plain nodes need none). */
function certFiles(node: AgentNode, dir: string) {
  if (tlsOf(node) !== 'tls') return { CertMode: 'none' };
  return {
    CertMode: 'file',
    CertDomain: node.settings.sni ?? node.host,
    CertFile: `${dir}/fullchain.cer`,
    KeyFile: `${dir}/cert.key`,
  };
}

/** The node's entry in the `Nodes` list of V2bX's config.json. */
export function v2bxNode(node: AgentNode, token: string, publicUrl: string) {
  return {
    Core: V2BX_CORES[node.protocol],
    ApiHost: publicUrl,
    ApiKey: token,
    NodeID: node.id,
    NodeType: node.protocol,
    Timeout: TIMEOUT_SECONDS,
    ListenIP: '0.0.0.0',
    SendIP: '0.0.0.0',
    CertConfig: certFiles(node, '/etc/V2bX'),
  };
}

/** The node's entry in the `Nodes` list of XrayR's config.yml, or undefined for a protocol XrayR does not serve. */
export function xrayrNode(node: AgentNode, token: string, publicUrl: string) {
  const type = XRAYR_TYPES[node.protocol];
  if (!type) return undefined;
  const vless = node.protocol === 'vless';
  return {
    PanelType: 'NewV2board',
    ApiConfig: {
      ApiHost: publicUrl,
      ApiKey: token,
      NodeID: node.id,
      NodeType: type,
      Timeout: TIMEOUT_SECONDS,
      ...(vless ? { EnableVless: true } : {}),
      ...(vless && node.settings.flow ? { VlessFlow: node.settings.flow } : {}),
    },
    ControllerConfig: {
      ListenIP: '0.0.0.0',
      SendIP: '0.0.0.0',
      UpdatePeriodic: 60,
      ...(tlsOf(node) === 'reality' ? { EnableREALITY: true, DisableLocalREALITYConfig: true } : {}),
      CertConfig: certFiles(node, '/etc/XrayR/cert'),
    },
  };
}

/** What to paste into each agent's configuration, as text. */
export function agentsText(node: AgentNode, token: string, publicUrl: string): string {
  const v2bx = v2bxNode(node, token, publicUrl);
  const xrayr = xrayrNode(node, token, publicUrl);
  const certificate =
    tlsOf(node) === 'tls'
      ? `\nPut the certificate of ${v2bx.CertConfig.CertDomain} in the CertFile and KeyFile named (or set CertMode to http or dns to have the agent obtain one).`
      : '';
  return (
    [
      `V2bX: add to "Nodes" in /etc/V2bX/config.json (with a core of type "${v2bx.Core}" in "Cores"):`,
      JSON.stringify(v2bx, null, 2),
      '',
      xrayr
        ? `XrayR: add to "Nodes" in /etc/XrayR/config.yml:\n${stringify([xrayr]).trimEnd()}`
        : `XrayR: does not serve ${node.protocol} nodes; use V2bX.`,
    ].join('\n') + certificate
  );
}
