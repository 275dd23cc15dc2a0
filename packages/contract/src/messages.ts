import type { ErrorKey } from './errors.js';
import type { RequestLanguage } from './language.js';

/** Success messages the server puts in `msg`. */
export const NOTICES = {
  OK: 'OK',
  EMAIL_CODE_SENT: 'EMAIL_CODE_SENT',
  REGISTERED: 'REGISTERED',
  PASSWORD_RESET: 'PASSWORD_RESET',
  PASSWORD_CHANGED: 'PASSWORD_CHANGED',
  LOGGED_OUT: 'LOGGED_OUT',
  ORDER_CANCELLED: 'ORDER_CANCELLED',
  SUBSCRIPTION_RESET: 'SUBSCRIPTION_RESET',
} as const;
export type NoticeKey = keyof typeof NOTICES;

export type MessageKey = ErrorKey | NoticeKey;

/** The text of every server message, in each request language; the web shows the same words for its own checks. */
export const MESSAGES: Record<MessageKey, Record<RequestLanguage, string>> = {
  OK: { en: 'Success', 'pt-BR': 'Sucesso', 'zh-Hans': '成功' },
  EMAIL_CODE_SENT: { en: 'Sent successfully', 'pt-BR': 'Enviado com sucesso', 'zh-Hans': '发送成功' },
  REGISTERED: {
    en: 'Registration successful',
    'pt-BR': 'Cadastro realizado com sucesso',
    'zh-Hans': '注册成功',
  },
  PASSWORD_RESET: { en: 'Reset successful', 'pt-BR': 'Redefinição concluída', 'zh-Hans': '重置成功' },
  PASSWORD_CHANGED: {
    en: 'Password changed, please log in again',
    'pt-BR': 'Senha alterada, faça login novamente',
    'zh-Hans': '密码修改成功，请重新登录',
  },
  LOGGED_OUT: { en: 'Signed out', 'pt-BR': 'Sessão encerrada', 'zh-Hans': '已退出登录' },
  ORDER_CANCELLED: { en: 'Cancel success', 'pt-BR': 'Cancelado com sucesso', 'zh-Hans': '取消成功' },
  SUBSCRIPTION_RESET: {
    en: 'Subscription reset: import the new link into your apps; the old one no longer works',
    'pt-BR': 'Assinatura redefinida: importe o novo link nos seus apps; o antigo não funciona mais',
    'zh-Hans': '订阅已重置：请在客户端中导入新链接，旧链接已失效',
  },

  ORDER_UNFINISHED: {
    en: 'You have an unfinished order for this plan',
    'pt-BR': 'Você tem um pedido não concluído para este plano',
    'zh-Hans': '您有该套餐的未完成订单',
  },
  PACKAGE_ACTIVE: {
    en: 'You already have an active package',
    'pt-BR': 'Você já tem um pacote ativo',
    'zh-Hans': '您已有生效中的套餐',
  },
  BAD_REQUEST: {
    en: 'Invalid request parameters',
    'pt-BR': 'Parâmetros da solicitação inválidos',
    'zh-Hans': '请求参数无效',
  },
  UNAUTHORIZED: {
    en: 'Login expired, please log in again',
    'pt-BR': 'Login expirado, faça login novamente',
    'zh-Hans': '登录已过期，请重新登录',
  },
  FORBIDDEN: { en: 'No access', 'pt-BR': 'Sem acesso', 'zh-Hans': '无访问权限' },
  NOT_FOUND: {
    en: 'Request error, the resource was not found',
    'pt-BR': 'Erro na solicitação, o recurso não foi encontrado',
    'zh-Hans': '请求错误，未找到该资源',
  },
  METHOD_NOT_ALLOWED: {
    en: 'Request method not allowed',
    'pt-BR': 'Método de solicitação não permitido',
    'zh-Hans': '请求方法不允许',
  },
  PAYLOAD_TOO_LARGE: {
    en: 'The request is too large',
    'pt-BR': 'A solicitação é grande demais',
    'zh-Hans': '请求内容过大',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    en: 'Unsupported request format',
    'pt-BR': 'Formato de solicitação não suportado',
    'zh-Hans': '不支持的请求格式',
  },
  TOO_MANY_REQUESTS: {
    en: 'Too many requests, please try again later',
    'pt-BR': 'Muitas solicitações, tente novamente mais tarde',
    'zh-Hans': '请求过于频繁，请稍后再试',
  },
  INTERNAL: {
    en: 'Server side error',
    'pt-BR': 'Erro no servidor',
    'zh-Hans': '服务器端错误',
  },
  SERVICE_UNAVAILABLE: {
    en: 'The service is unavailable, please try again shortly',
    'pt-BR': 'O serviço está indisponível, tente novamente em instantes',
    'zh-Hans': '服务暂不可用，请稍后再试',
  },
  ALL_REQUIRED: {
    en: 'All fields must not be empty',
    'pt-BR': 'Todos os campos devem ser preenchidos',
    'zh-Hans': '所有字段均不能为空',
  },
  EMAIL_FORMAT: { en: 'Email format error', 'pt-BR': 'Formato de e-mail inválido', 'zh-Hans': '邮箱格式错误' },
  PASSWORD_FORMAT: {
    en: 'Password format error',
    'pt-BR': 'Formato de senha inválido',
    'zh-Hans': '密码格式错误',
  },
  PASSWORD_DIFFERENT: {
    en: 'The two passwords are different',
    'pt-BR': 'As duas senhas são diferentes',
    'zh-Hans': '两次输入的密码不一致',
  },
  NEW_PASSWORD_DIFFERENT: {
    en: 'The new password entered twice is different',
    'pt-BR': 'A nova senha digitada duas vezes é diferente',
    'zh-Hans': '两次输入的新密码不一致',
  },
  PASSWORD_BLANK: {
    en: 'Password can not be blank',
    'pt-BR': 'A senha não pode ficar em branco',
    'zh-Hans': '密码不能为空',
  },
  EMAIL_CODE_REQUIRED: {
    en: 'Email verification code cannot be empty',
    'pt-BR': 'O código de verificação do e-mail não pode ficar vazio',
    'zh-Hans': '邮箱验证码不能为空',
  },
  PICTURE_CODE_FIRST: {
    en: 'Please fill in the picture verification code first',
    'pt-BR': 'Preencha primeiro o código de verificação da imagem',
    'zh-Hans': '请先填写图片验证码',
  },
  USERNAME_INVALID: {
    en: 'Username error',
    'pt-BR': 'Nome de usuário inválido',
    'zh-Hans': '用户名错误',
  },
  INVITE_CODE_INVALID: {
    en: 'Invalid invitation code',
    'pt-BR': 'Código de convite inválido',
    'zh-Hans': '邀请码无效',
  },
  CAPTCHA_INVALID: {
    en: 'The picture verification code is wrong or has expired',
    'pt-BR': 'O código da imagem está errado ou expirou',
    'zh-Hans': '图片验证码错误或已过期',
  },
  EMAIL_CODE_INVALID: {
    en: 'The email verification code is wrong or has expired',
    'pt-BR': 'O código de verificação do e-mail está errado ou expirou',
    'zh-Hans': '邮箱验证码错误或已过期',
  },
  EMAIL_CODE_TOO_SOON: {
    en: 'A code was sent less than a minute ago, please wait',
    'pt-BR': 'Um código foi enviado há menos de um minuto, aguarde',
    'zh-Hans': '验证码发送过于频繁，请一分钟后再试',
  },
  EMAIL_TAKEN: {
    en: 'This email is already registered',
    'pt-BR': 'Este e-mail já está cadastrado',
    'zh-Hans': '该邮箱已被注册',
  },
  LOGIN_FAILED: {
    en: 'Wrong email or password',
    'pt-BR': 'E-mail ou senha incorretos',
    'zh-Hans': '邮箱或密码错误',
  },
  OLD_PASSWORD_WRONG: {
    en: 'The old password is wrong',
    'pt-BR': 'A senha antiga está incorreta',
    'zh-Hans': '旧密码错误',
  },
  ACCOUNT_DISABLED: {
    en: 'This account has been disabled',
    'pt-BR': 'Esta conta foi desativada',
    'zh-Hans': '该账户已被停用',
  },
  PACKAGE_NOT_FOUND: {
    en: 'This plan is not available',
    'pt-BR': 'Este plano não está disponível',
    'zh-Hans': '该套餐不可用',
  },
  CURRENCY_NOT_AVAILABLE: {
    en: 'This plan cannot be paid in that currency',
    'pt-BR': 'Este plano não pode ser pago nessa moeda',
    'zh-Hans': '该套餐不支持此币种支付',
  },
  ORDER_NOT_FOUND: { en: 'Order not found', 'pt-BR': 'Pedido não encontrado', 'zh-Hans': '订单不存在' },
  ORDER_NOT_CANCELLABLE: {
    en: 'Only an order waiting for payment can be cancelled',
    'pt-BR': 'Só é possível cancelar um pedido aguardando pagamento',
    'zh-Hans': '只能取消待支付的订单',
  },
  ORDER_NOT_PAYABLE: {
    en: 'This order can no longer be paid',
    'pt-BR': 'Este pedido não pode mais ser pago',
    'zh-Hans': '该订单已无法支付',
  },
  PAYMENT_METHOD_UNAVAILABLE: {
    en: 'This payment method is not available',
    'pt-BR': 'Este método de pagamento não está disponível',
    'zh-Hans': '该支付方式不可用',
  },
  PAYMENT_ACTION_REFUSED: {
    en: 'This payment action is not possible for the order in its current state',
    'pt-BR': 'Esta ação de pagamento não é possível no estado atual do pedido',
    'zh-Hans': '订单当前状态下无法执行此支付操作',
  },
  PAYMENT_GATEWAY_UNAVAILABLE: {
    en: 'This payment method is not answering right now. Try again in a moment, or choose another method',
    'pt-BR': 'Este método de pagamento não está respondendo agora. Tente de novo em instantes ou escolha outro método',
    'zh-Hans': '该支付方式暂时无响应，请稍后重试或选择其他支付方式',
  },
  SECOND_FACTOR_REQUIRED: {
    en: 'Confirm with your authenticator app or passkey',
    'pt-BR': 'Confirme com seu aplicativo autenticador ou sua chave de acesso',
    'zh-Hans': '请使用身份验证器应用或通行密钥确认',
  },
  TOTP_CODE_INVALID: {
    en: 'The code is wrong or has expired',
    'pt-BR': 'O código está incorreto ou expirou',
    'zh-Hans': '验证码错误或已过期',
  },
  TOTP_ALREADY_ENROLLED: {
    en: 'An authenticator app is already enrolled',
    'pt-BR': 'Um aplicativo autenticador já está cadastrado',
    'zh-Hans': '已绑定身份验证器应用',
  },
  LAST_OWNER: {
    en: 'The last active owner cannot be demoted or disabled',
    'pt-BR': 'O último proprietário ativo não pode ser rebaixado nem desativado',
    'zh-Hans': '不能降级或停用最后一位有效的所有者',
  },
  NODE_SETTING_INVALID: {
    en: 'A setting does not fit the node’s protocol, transport or TLS',
    'pt-BR': 'Uma configuração não combina com o protocolo, o transporte ou o TLS do nó',
    'zh-Hans': '某项设置与节点的协议、传输方式或 TLS 不符',
  },
  ORDER_NOT_UNPAID: {
    en: 'Only an unpaid order can be marked paid',
    'pt-BR': 'Só é possível marcar como pago um pedido não pago',
    'zh-Hans': '只能将未支付的订单标记为已支付',
  },
  ORDER_NOT_PAID: {
    en: 'Only a paid order can be refunded or charged back',
    'pt-BR': 'Só é possível reembolsar ou estornar um pedido pago',
    'zh-Hans': '只能对已支付的订单退款或拒付',
  },
  REFUND_FAILED: {
    en: 'The payment gateway did not take the refund: nothing changed',
    'pt-BR': 'O gateway de pagamento não aceitou o reembolso: nada foi alterado',
    'zh-Hans': '支付网关未接受退款，订单未作更改',
  },
  CURRENCY_NOT_FOUND: {
    en: 'This currency does not exist: add it first',
    'pt-BR': 'Esta moeda não existe: adicione-a primeiro',
    'zh-Hans': '该币种不存在，请先添加',
  },
  CURRENCY_EXISTS: {
    en: 'This currency exists already',
    'pt-BR': 'Esta moeda já existe',
    'zh-Hans': '该币种已存在',
  },
  PRICE_OLD_BELOW_REAL: {
    en: 'The old price must not be below the real one',
    'pt-BR': 'O preço antigo não pode ser menor que o real',
    'zh-Hans': '原价不能低于实际价格',
  },
  PRICE_CURRENCY_TWICE: {
    en: 'A currency is given twice in the prices',
    'pt-BR': 'Uma moeda aparece duas vezes nos preços',
    'zh-Hans': '价格中有重复的币种',
  },
  CUSTOMER_NO_RUNNING_PACKAGE: {
    en: 'This customer has no running package',
    'pt-BR': 'Este cliente não tem pacote em execução',
    'zh-Hans': '该客户没有生效中的套餐',
  },
  PASSKEY_INVALID: {
    en: 'The passkey could not be verified. Try again',
    'pt-BR': 'Não foi possível verificar a chave de acesso. Tente de novo',
    'zh-Hans': '无法验证通行密钥，请重试',
  },
  PASSKEY_NAME_INVALID: {
    en: 'The passkey name may be at most 64 characters',
    'pt-BR': 'O nome da chave de acesso pode ter no máximo 64 caracteres',
    'zh-Hans': '通行密钥名称最多 64 个字符',
  },
  LAST_SECOND_FACTOR: {
    en: 'An owner’s last second factor cannot be removed',
    'pt-BR': 'O último segundo fator de um proprietário não pode ser removido',
    'zh-Hans': '不能移除所有者的最后一个第二验证因素',
  },
};

export function messageOf(key: MessageKey, language: RequestLanguage): string {
  return MESSAGES[key][language];
}
