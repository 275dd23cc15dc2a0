import type { EmailCodeAction, RequestLanguage } from '@mutenet/contract';
import type { MailMessage } from '../../plugins/app/mail.js';

type Texts = { subject: string; intro: string; outro: string };

const CODE_TEXTS: Record<EmailCodeAction, Record<RequestLanguage, Texts>> = {
  register: {
    en: {
      subject: 'Your Mutenet registration code',
      intro: 'Use this code to finish creating your account:',
      outro: 'It is valid for 10 minutes. If you did not ask for it, ignore this email.',
    },
    'pt-BR': {
      subject: 'Seu código de cadastro Mutenet',
      intro: 'Use este código para concluir a criação da sua conta:',
      outro: 'Ele é válido por 10 minutos. Se você não o solicitou, ignore este e-mail.',
    },
    'zh-Hans': {
      subject: '您的 Mutenet 注册验证码',
      intro: '请使用以下验证码完成账户注册：',
      outro: '验证码 10 分钟内有效。如果这不是您本人的操作，请忽略此邮件。',
    },
  },
  reset_password: {
    en: {
      subject: 'Your Mutenet password reset code',
      intro: 'Use this code to set a new password:',
      outro: 'It is valid for 10 minutes. If you did not ask for it, your password stays as it is.',
    },
    'pt-BR': {
      subject: 'Seu código para redefinir a senha Mutenet',
      intro: 'Use este código para definir uma nova senha:',
      outro: 'Ele é válido por 10 minutos. Se você não o solicitou, sua senha continua a mesma.',
    },
    'zh-Hans': {
      subject: '您的 Mutenet 密码重置验证码',
      intro: '请使用以下验证码设置新密码：',
      outro: '验证码 10 分钟内有效。如果这不是您本人的操作，您的密码不会改变。',
    },
  },
};

const ACCOUNT_EXISTS: Record<RequestLanguage, Texts> = {
  en: {
    subject: 'You already have a Mutenet account',
    intro: 'Someone tried to register with this address, but an account already exists for it.',
    outro: 'If it was you, log in or reset your password. Otherwise, ignore this email.',
  },
  'pt-BR': {
    subject: 'Você já tem uma conta Mutenet',
    intro: 'Alguém tentou se cadastrar com este endereço, mas já existe uma conta para ele.',
    outro: 'Se foi você, faça login ou redefina sua senha. Caso contrário, ignore este e-mail.',
  },
  'zh-Hans': {
    subject: '您已拥有 Mutenet 账户',
    intro: '有人尝试使用此邮箱注册，但该邮箱已注册过账户。',
    outro: '如果是您本人，请直接登录或重置密码；否则请忽略此邮件。',
  },
};

export function codeMail(to: string, action: EmailCodeAction, code: string, language: RequestLanguage): MailMessage {
  const texts = CODE_TEXTS[action][language];
  return { to, subject: texts.subject, text: `${texts.intro}\n\n    ${code}\n\n${texts.outro}\n` };
}

/** Sent instead of a code, so that the register form never tells a stranger which addresses have accounts. */
export function accountExistsMail(to: string, language: RequestLanguage): MailMessage {
  const texts = ACCOUNT_EXISTS[language];
  return { to, subject: texts.subject, text: `${texts.intro}\n\n${texts.outro}\n` };
}
