import type { Language } from '@mutenet/contract';
import type { IllustrationKind } from './guides';

/** A guide's words in one language: its title, the app's name for the download step, and its own steps. */
export type GuideText = {
  title: string;
  app: string;
  /** One per illustration of the guide, in the same order. */
  steps: readonly string[];
};

/**
 * The guides' titles and steps in each language, by guide id. Kept with the knowledge base (loaded with it) rather
 * than in the UI strings that every screen loads.
 */
export const GUIDE_TEXT: Record<Language, Record<number, GuideText>> = {
  en: {
    5: {
      title: 'Official Android client',
      app: 'the official app',
      steps: [
        'Open the app and log in with the email and password of your account.',
        'Tap the large connect button. The first time, allow the connection request Android shows.',
      ],
    },
    1: {
      title: 'v2rayNG (Android)',
      app: 'v2rayNG',
      steps: [
        'Open v2rayNG, tap + at the top right and choose Import config from clipboard.',
        'Open the ⋮ menu at the top right and tap Update subscription to load the nodes.',
        'Choose a node, then tap the round connect button. The first time, allow the connection request.',
      ],
    },
    2: {
      title: 'Clash for Windows',
      app: 'Clash for Windows',
      steps: [
        'Open Clash for Windows, go to Profiles, paste the link into the URL box and click Download.',
        'Go to Proxies and pick a node in the proxy group.',
        'Go to General and turn on System Proxy.',
      ],
    },
    3: {
      title: 'Shadowrocket (iOS)',
      app: 'Shadowrocket',
      steps: [
        'Open Shadowrocket: it offers to add the copied link; tap Add. Or tap + at the top right and paste the link.',
        'Tap a node in the list to select it.',
        'Turn on the switch at the top. The first time, allow iOS to add the VPN configuration.',
      ],
    },
    4: {
      title: 'FoXray (iOS)',
      app: 'FoXray',
      steps: [
        'Open FoXray, tap + at the top right and choose Import from clipboard.',
        'Tap a node in the list to select it.',
        'Tap the connect button. The first time, allow iOS to add the VPN configuration.',
      ],
    },
  },
  por: {
    5: {
      title: 'Cliente oficial para Android',
      app: 'o aplicativo oficial',
      steps: [
        'Abra o aplicativo e entre com o e-mail e a senha da sua conta.',
        'Toque no botão grande de conexão. Na primeira vez, permita o pedido de conexão que o Android mostra.',
      ],
    },
    1: {
      title: 'v2rayNG (Android)',
      app: 'v2rayNG',
      steps: [
        'Abra o v2rayNG, toque em + no canto superior direito e escolha Importar da área de transferência.',
        'Abra o menu ⋮ no canto superior direito e toque em Atualizar assinatura para carregar os nós.',
        'Escolha um nó e toque no botão redondo de conexão. Na primeira vez, permita o pedido de conexão.',
      ],
    },
    2: {
      title: 'Clash para Windows',
      app: 'Clash for Windows',
      steps: [
        'Abra o Clash for Windows, vá em Profiles, cole o link no campo de URL e clique em Download.',
        'Vá em Proxies e escolha um nó no grupo de proxy.',
        'Vá em General e ative System Proxy.',
      ],
    },
    3: {
      title: 'Shadowrocket (iOS)',
      app: 'Shadowrocket',
      steps: [
        'Abra o Shadowrocket: ele oferece adicionar o link copiado; toque em Adicionar. Ou toque em + no canto superior direito e cole o link.',
        'Toque em um nó da lista para selecioná-lo.',
        'Ative o interruptor no topo. Na primeira vez, permita que o iOS adicione a configuração de VPN.',
      ],
    },
    4: {
      title: 'FoXray (iOS)',
      app: 'FoXray',
      steps: [
        'Abra o FoXray, toque em + no canto superior direito e escolha Importar da área de transferência.',
        'Toque em um nó da lista para selecioná-lo.',
        'Toque no botão de conexão. Na primeira vez, permita que o iOS adicione a configuração de VPN.',
      ],
    },
  },
  zh: {
    5: {
      title: '官方安卓客户端',
      app: '官方客户端',
      steps: ['打开应用，使用您账户的邮箱和密码登录。', '点击大的连接按钮。首次使用时，请允许安卓系统显示的连接请求。'],
    },
    1: {
      title: 'v2rayNG（安卓）',
      app: 'v2rayNG',
      steps: [
        '打开 v2rayNG，点击右上角的 +，选择“从剪贴板导入”。',
        '打开右上角的 ⋮ 菜单，点击“更新订阅”以加载节点。',
        '选择一个节点，然后点击圆形连接按钮。首次使用时，请允许连接请求。',
      ],
    },
    2: {
      title: 'Windows 版 Clash',
      app: 'Clash for Windows',
      steps: [
        '打开 Clash for Windows，进入 Profiles，把链接粘贴到 URL 输入框并点击 Download。',
        '进入 Proxies，在代理组中选择一个节点。',
        '进入 General，打开 System Proxy。',
      ],
    },
    3: {
      title: 'Shadowrocket（iOS）',
      app: 'Shadowrocket',
      steps: [
        '打开 Shadowrocket，它会提示添加已复制的链接，点击“添加”；也可以点击右上角的 + 粘贴链接。',
        '点击列表中的节点将其选中。',
        '打开顶部的开关。首次使用时，请允许 iOS 添加 VPN 配置。',
      ],
    },
    4: {
      title: 'FoXray（iOS）',
      app: 'FoXray',
      steps: [
        '打开 FoXray，点击右上角的 +，选择“从剪贴板导入”。',
        '点击列表中的节点将其选中。',
        '点击连接按钮。首次使用时，请允许 iOS 添加 VPN 配置。',
      ],
    },
  },
};

/** What each picture shows, for those who cannot see it. */
export const ILLUSTRATION_ALT: Record<Language, Record<IllustrationKind, string>> = {
  en: {
    'phone-login': 'A phone showing a login form: an email field, a password field and a log-in button.',
    'phone-import-clipboard':
      'A phone with the + button at the top right highlighted, and its menu open on the import from clipboard item.',
    'phone-update-subscription':
      'A phone with the menu at the top right open, its update subscription item highlighted.',
    'phone-select-node': 'A phone showing a list of nodes, one of them selected with a tick.',
    'phone-connect': 'A phone with a large round connect button, switched on.',
    'phone-vpn-permission': 'A phone showing a permission dialog, its Allow button highlighted.',
    'desktop-import-url':
      'A computer window: the Profiles entry of the side menu is selected, the link is pasted in a text box and the Download button beside it is highlighted.',
    'desktop-select-node':
      'A computer window: the Proxies entry is selected and one node among several is highlighted.',
    'desktop-system-proxy':
      'A computer window: the General entry is selected and the System Proxy switch is turned on.',
  },
  por: {
    'phone-login': 'Um celular com um formulário de login: campo de e-mail, campo de senha e botão de entrar.',
    'phone-import-clipboard':
      'Um celular com o botão + destacado no canto superior direito e o menu aberto no item de importar da área de transferência.',
    'phone-update-subscription':
      'Um celular com o menu do canto superior direito aberto e o item de atualizar assinatura destacado.',
    'phone-select-node': 'Um celular com uma lista de nós, um deles selecionado com um visto.',
    'phone-connect': 'Um celular com um grande botão redondo de conexão, ligado.',
    'phone-vpn-permission': 'Um celular com um diálogo de permissão e o botão Permitir destacado.',
    'desktop-import-url':
      'Uma janela de computador: o item Profiles do menu lateral está selecionado, o link está colado em uma caixa de texto e o botão Download ao lado está destacado.',
    'desktop-select-node':
      'Uma janela de computador: o item Proxies está selecionado e um nó entre vários está destacado.',
    'desktop-system-proxy':
      'Uma janela de computador: o item General está selecionado e o interruptor System Proxy está ligado.',
  },
  zh: {
    'phone-login': '手机上的登录表单：邮箱输入框、密码输入框和登录按钮。',
    'phone-import-clipboard': '手机右上角的 + 按钮被突出显示，其菜单已打开，“从剪贴板导入”一项被选中。',
    'phone-update-subscription': '手机右上角的菜单已打开，“更新订阅”一项被突出显示。',
    'phone-select-node': '手机上的节点列表，其中一个节点打勾选中。',
    'phone-connect': '手机上的大圆形连接按钮，处于开启状态。',
    'phone-vpn-permission': '手机上的权限对话框，“允许”按钮被突出显示。',
    'desktop-import-url': '电脑窗口：侧边菜单的 Profiles 被选中，链接已粘贴到输入框，旁边的 Download 按钮被突出显示。',
    'desktop-select-node': '电脑窗口：Proxies 被选中，多个节点中的一个被突出显示。',
    'desktop-system-proxy': '电脑窗口：General 被选中，System Proxy 开关已打开。',
  },
};
