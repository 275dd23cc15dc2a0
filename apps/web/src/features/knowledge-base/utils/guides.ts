import type { ClientApp } from '@mutenet/contract';

/** What a guide's pictures show: schematic scenes of our own, drawn in `guide-illustration.tsx`. */
export type IllustrationKind =
  | 'phone-login'
  | 'phone-import-clipboard'
  | 'phone-update-subscription'
  | 'phone-select-node'
  | 'phone-connect'
  | 'phone-vpn-permission'
  | 'desktop-import-url'
  | 'desktop-select-node'
  | 'desktop-system-proxy';

export type Guide = {
  /** The guide's number, as the spec lists them (spec section 2). */
  id: number;
  /** Its download link in the runtime configuration. */
  app: ClientApp;
  /** YYYY/MM/DD (spec section 9). */
  updated: string;
  /**
   * `file`: the configured URL is the installer, downloaded from the page (Clash and v2rayNG); `page`: a store or
   * download page, opened in a new tab.
   */
  download: 'file' | 'page';
  /** The pictures of its steps after the download, in order; the texts are in `guide-text.ts`, by guide id. */
  illustrations: readonly IllustrationKind[];
};

/** The knowledge base's five guides (spec sections 2 and 9), in the order the spec lists them. */
export const GUIDES: readonly Guide[] = [
  {
    id: 5,
    app: 'officialAndroid',
    updated: '2023/11/24',
    download: 'page',
    illustrations: ['phone-login', 'phone-connect'],
  },
  {
    id: 1,
    app: 'v2rayNG',
    updated: '2023/09/20',
    download: 'file',
    illustrations: ['phone-import-clipboard', 'phone-update-subscription', 'phone-connect'],
  },
  {
    id: 2,
    app: 'clashWindows',
    updated: '2023/09/20',
    download: 'file',
    illustrations: ['desktop-import-url', 'desktop-select-node', 'desktop-system-proxy'],
  },
  {
    id: 3,
    app: 'shadowrocket',
    updated: '2023/09/20',
    download: 'page',
    illustrations: ['phone-import-clipboard', 'phone-select-node', 'phone-vpn-permission'],
  },
  {
    id: 4,
    app: 'foxray',
    updated: '2023/09/20',
    download: 'page',
    illustrations: ['phone-import-clipboard', 'phone-select-node', 'phone-connect'],
  },
];
