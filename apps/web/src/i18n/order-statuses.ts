import type { OrderStatus, RequestLanguage } from '@mutenet/contract';

/**
 * The label of each order status (spec section 4), shared by the panel's resources and the hosted checkout,
 * which has no i18next of its own.
 */
export const ORDER_STATUS_LABELS: Record<RequestLanguage, Record<OrderStatus, string>> = {
  en: {
    waiting: 'To be paid',
    paying: 'Paying',
    close: 'Cancelled by user',
    cancel: 'Payment cancelled',
    timeout: 'Cancelled automatically after timeout',
    failed: 'Payment failed',
    success: 'Payment successful (subscription opened)',
    unused: 'Unknown',
    rejected: 'Chargeback',
    doing: 'Processing',
    refunded: 'Refunded',
  },
  'pt-BR': {
    waiting: 'Aguardando pagamento',
    paying: 'Pagando',
    close: 'Cancelado pelo usuário',
    cancel: 'Pagamento cancelado',
    timeout: 'Cancelado automaticamente por tempo esgotado',
    failed: 'Falha no pagamento',
    success: 'Pagamento concluído (assinatura ativada)',
    unused: 'Desconhecido',
    rejected: 'Estorno',
    doing: 'Processando',
    refunded: 'Reembolsado',
  },
  'zh-Hans': {
    waiting: '待支付',
    paying: '支付中',
    close: '用户已取消',
    cancel: '支付已取消',
    timeout: '超时自动取消',
    failed: '支付失败',
    success: '支付成功（已开通订阅）',
    unused: '未知',
    rejected: '拒付',
    doing: '处理中',
    refunded: '已退款',
  },
};
