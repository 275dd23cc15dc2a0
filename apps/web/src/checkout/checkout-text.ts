import type { RequestLanguage } from '@mutenet/contract';

/**
 * The hosted checkout's words, in the three languages of its path. The page is a small entry of its own, without
 * the panel's i18next and resources; the order statuses come from `i18n/order-statuses.ts`, shared with the panel.
 */
export type CheckoutText = {
  title: string;
  brand: string;
  loading: string;
  orderTitle: string;
  orderNo: string;
  product: string;
  type: string;
  amount: string;
  status: string;
  methodsTitle: string;
  noMethods: string;
  notPayable: string;
  redirecting: string;
  sandboxTitle: string;
  sandboxHint: string;
  approve: string;
  decline: string;
  pending: string;
  resultTitle: string;
  resultText: string;
  backToOrder: string;
  noSessionTitle: string;
  noSessionText: string;
  logIn: string;
  badLinkTitle: string;
  badLinkText: string;
  myOrders: string;
  errorTitle: string;
  networkError: string;
  connectionError: string;
  invalidResponse: string;
  retry: string;
};

export const CHECKOUT_TEXT: Record<RequestLanguage, CheckoutText> = {
  en: {
    title: 'Checkout',
    brand: 'Mutenet',
    loading: 'Loading the order…',
    orderTitle: 'Your order',
    orderNo: 'Order number',
    product: 'Product',
    type: 'Type / period',
    amount: 'Amount',
    status: 'Status',
    methodsTitle: 'Choose a payment method',
    noMethods: 'No payment method is available at the moment. Please try again later.',
    notPayable: 'This order can no longer be paid.',
    redirecting: 'Opening the payment page…',
    sandboxTitle: 'Sandbox payment',
    sandboxHint: 'This is a test payment: choose how it ends. No money is moved.',
    approve: 'Approve',
    decline: 'Decline',
    pending: 'Leave pending',
    resultTitle: 'Payment result',
    resultText: 'The order status is now:',
    backToOrder: 'Back to the order details',
    noSessionTitle: 'Please log in',
    noSessionText:
      'Your session has ended or this page was opened outside the panel. Log in, then open the payment page again from your order.',
    logIn: 'Log in',
    badLinkTitle: 'This payment link is not valid',
    badLinkText: 'Open the payment page again from your orders in the panel.',
    myOrders: 'My orders',
    errorTitle: 'Something went wrong',
    networkError: 'Network error',
    connectionError: 'Connection error',
    invalidResponse: 'The server sent an answer this page cannot read',
    retry: 'Try again',
  },
  'pt-BR': {
    title: 'Pagamento',
    brand: 'Mutenet',
    loading: 'Carregando o pedido…',
    orderTitle: 'Seu pedido',
    orderNo: 'Número do pedido',
    product: 'Produto',
    type: 'Tipo / período',
    amount: 'Valor',
    status: 'Status',
    methodsTitle: 'Escolha uma forma de pagamento',
    noMethods: 'Nenhuma forma de pagamento está disponível no momento. Tente novamente mais tarde.',
    notPayable: 'Este pedido não pode mais ser pago.',
    redirecting: 'Abrindo a página de pagamento…',
    sandboxTitle: 'Pagamento sandbox',
    sandboxHint: 'Este é um pagamento de teste: escolha como ele termina. Nenhum dinheiro é movimentado.',
    approve: 'Aprovar',
    decline: 'Recusar',
    pending: 'Deixar pendente',
    resultTitle: 'Resultado do pagamento',
    resultText: 'O status do pedido agora é:',
    backToOrder: 'Voltar aos detalhes do pedido',
    noSessionTitle: 'Faça login',
    noSessionText:
      'Sua sessão terminou ou esta página foi aberta fora do painel. Faça login e abra a página de pagamento novamente a partir do seu pedido.',
    logIn: 'Entrar',
    badLinkTitle: 'Este link de pagamento não é válido',
    badLinkText: 'Abra a página de pagamento novamente a partir dos seus pedidos no painel.',
    myOrders: 'Meus pedidos',
    errorTitle: 'Algo deu errado',
    networkError: 'Erro de rede',
    connectionError: 'Erro de conexão',
    invalidResponse: 'O servidor enviou uma resposta que esta página não consegue ler',
    retry: 'Tentar novamente',
  },
  'zh-Hans': {
    title: '收银台',
    brand: 'Mutenet',
    loading: '正在加载订单…',
    orderTitle: '您的订单',
    orderNo: '订单号',
    product: '商品',
    type: '类型 / 周期',
    amount: '金额',
    status: '状态',
    methodsTitle: '选择支付方式',
    noMethods: '暂时没有可用的支付方式，请稍后再试。',
    notPayable: '该订单已无法支付。',
    redirecting: '正在打开支付页面…',
    sandboxTitle: '沙盒支付',
    sandboxHint: '这是一笔测试支付：请选择支付结果。不会产生任何真实扣款。',
    approve: '支付成功',
    decline: '拒绝支付',
    pending: '保持待处理',
    resultTitle: '支付结果',
    resultText: '订单当前状态：',
    backToOrder: '返回订单详情',
    noSessionTitle: '请先登录',
    noSessionText: '您的登录已失效，或此页面不是从面板中打开的。请登录后，从订单中重新打开支付页面。',
    logIn: '登录',
    badLinkTitle: '该支付链接无效',
    badLinkText: '请在面板的订单中重新打开支付页面。',
    myOrders: '我的订单',
    errorTitle: '出错了',
    networkError: '网络错误',
    connectionError: '连接错误',
    invalidResponse: '服务器返回了无法识别的响应',
    retry: '重试',
  },
};
