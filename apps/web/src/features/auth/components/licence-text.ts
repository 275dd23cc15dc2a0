import type { Language } from '@mutenet/contract';

export type LicenceText = {
  updated: string;
  intro: string;
  sections: { title: string; paragraphs: string[] }[];
};

/**
 * The user licence agreement, short on purpose: the points the service stands on (one account per
 * person, no shared subscription links, no disposable emails, Hong Kong law). Last updated 1 August 2023.
 */
export const LICENCE_TEXT: Record<Language, LicenceText> = {
  en: {
    updated: 'Last updated: 1 August 2023',
    intro:
      'This agreement is between you and the operator of this Mutenet service. By registering an account or using the service you accept it. If you do not accept it, do not register or use the service.',
    sections: [
      {
        title: '1. Your account',
        paragraphs: [
          'One account per person. You may not register or hold more than one account, or register an account on behalf of someone else.',
          'Register with an email address that you own and read. Disposable or temporary email addresses are not allowed; accounts registered with one may be closed without notice.',
          'Keep your password to yourself. You are responsible for everything done with your account.',
        ],
      },
      {
        title: '2. Your subscription link',
        paragraphs: [
          'Your subscription link is personal and is for your own devices only. Do not share, publish, sell or lend it.',
          'If your link has been seen by someone else, reset it in the user centre at once. Links found to be shared may be reset, and the account suspended.',
        ],
      },
      {
        title: '3. Acceptable use',
        paragraphs: [
          'Use the service lawfully. Do not use it to send spam, attack or scan other systems, distribute malware, infringe the rights of others or break the law of the place where you are.',
          'Plans are sold for personal use. Reselling access is not allowed.',
        ],
      },
      {
        title: '4. Plans, payment and availability',
        paragraphs: [
          'A plan starts when its order is paid, or when the plan before it ends, and lasts for the period or traffic shown when you ordered it.',
          'We work to keep the service available but do not guarantee that any node is reachable at all times or from every network.',
        ],
      },
      {
        title: '5. Suspension and termination',
        paragraphs: [
          'We may suspend or close an account that breaks this agreement. You may stop using the service at any time.',
        ],
      },
      {
        title: '6. Governing law',
        paragraphs: [
          'This agreement is governed by the laws of the Hong Kong Special Administrative Region, whose courts hear any dispute arising from it.',
        ],
      },
      {
        title: '7. Changes',
        paragraphs: [
          'We may change this agreement. The date above shows the latest version; using the service after a change means you accept it.',
        ],
      },
    ],
  },
  por: {
    updated: 'Última atualização: 1º de agosto de 2023',
    intro:
      'Este contrato é entre você e o operador deste serviço Mutenet. Ao cadastrar uma conta ou usar o serviço, você o aceita. Se não o aceitar, não se cadastre nem use o serviço.',
    sections: [
      {
        title: '1. Sua conta',
        paragraphs: [
          'Uma conta por pessoa. Você não pode cadastrar nem manter mais de uma conta, nem cadastrar uma conta em nome de outra pessoa.',
          'Cadastre-se com um e-mail que seja seu e que você leia. E-mails descartáveis ou temporários não são permitidos; contas cadastradas com eles podem ser encerradas sem aviso.',
          'Não compartilhe sua senha. Você é responsável por tudo o que for feito com sua conta.',
        ],
      },
      {
        title: '2. Seu link de assinatura',
        paragraphs: [
          'Seu link de assinatura é pessoal e serve apenas para os seus dispositivos. Não o compartilhe, publique, venda nem empreste.',
          'Se outra pessoa viu o seu link, redefina-o imediatamente na central do usuário. Links compartilhados podem ser redefinidos e a conta suspensa.',
        ],
      },
      {
        title: '3. Uso aceitável',
        paragraphs: [
          'Use o serviço de forma legal. Não o use para enviar spam, atacar ou varrer outros sistemas, distribuir malware, violar direitos de terceiros ou descumprir a lei do lugar onde você está.',
          'Os planos são vendidos para uso pessoal. A revenda do acesso não é permitida.',
        ],
      },
      {
        title: '4. Planos, pagamento e disponibilidade',
        paragraphs: [
          'Um plano começa quando o pedido é pago, ou quando termina o plano anterior, e dura o período ou o tráfego mostrados no momento do pedido.',
          'Trabalhamos para manter o serviço disponível, mas não garantimos que todos os nós estejam acessíveis a todo momento ou a partir de qualquer rede.',
        ],
      },
      {
        title: '5. Suspensão e encerramento',
        paragraphs: [
          'Podemos suspender ou encerrar uma conta que descumpra este contrato. Você pode deixar de usar o serviço a qualquer momento.',
        ],
      },
      {
        title: '6. Lei aplicável',
        paragraphs: [
          'Este contrato é regido pelas leis da Região Administrativa Especial de Hong Kong, cujos tribunais julgam qualquer disputa dele decorrente.',
        ],
      },
      {
        title: '7. Alterações',
        paragraphs: [
          'Podemos alterar este contrato. A data acima indica a versão mais recente; continuar usando o serviço após uma alteração significa que você a aceita.',
        ],
      },
    ],
  },
  zh: {
    updated: '最后更新：2023 年 8 月 1 日',
    intro:
      '本协议由您与本 Mutenet 服务的运营方订立。注册账号或使用本服务即表示您接受本协议。如不接受，请勿注册或使用本服务。',
    sections: [
      {
        title: '一、您的账号',
        paragraphs: [
          '每人仅限一个账号。您不得注册或持有多个账号，也不得代他人注册账号。',
          '请使用您本人拥有并查看的邮箱注册。禁止使用一次性或临时邮箱；以此类邮箱注册的账号可能被直接关闭。',
          '请妥善保管密码。您须对账号下的一切行为负责。',
        ],
      },
      {
        title: '二、您的订阅链接',
        paragraphs: [
          '订阅链接仅供您本人的设备使用，禁止分享、公开、出售或出借。',
          '如订阅链接已被他人看到，请立即在用户中心重置。被发现分享的链接可能被重置，账号可能被停用。',
        ],
      },
      {
        title: '三、合理使用',
        paragraphs: [
          '请合法使用本服务。不得利用本服务发送垃圾信息、攻击或扫描其他系统、传播恶意软件、侵犯他人权利或违反您所在地的法律。',
          '套餐仅供个人使用，禁止转售。',
        ],
      },
      {
        title: '四、套餐、付款与可用性',
        paragraphs: [
          '套餐自订单付款时生效（或在前一个套餐结束时生效），有效期或流量以下单时显示的为准。',
          '我们尽力保持服务可用，但不保证任何节点在任何时间、任何网络下均可访问。',
        ],
      },
      {
        title: '五、停用与终止',
        paragraphs: ['对于违反本协议的账号，我们可予以停用或关闭。您可随时停止使用本服务。'],
      },
      {
        title: '六、适用法律',
        paragraphs: ['本协议受香港特别行政区法律管辖，因本协议产生的任何争议由香港特别行政区法院审理。'],
      },
      {
        title: '七、协议变更',
        paragraphs: ['我们可能修改本协议。上方日期为最新版本的日期；变更后继续使用本服务即表示您接受变更。'],
      },
    ],
  },
};
