import { defineStrings } from '../i18n';

/** Second factors: choosing one to enrol, passkeys at sign-in and when added. */
export const sessionStrings = defineStrings('session', {
  en: {
    enrolTitle: 'Set up a second factor',
    enrolRequired:
      'Owners confirm each sign-in with a second factor: an authenticator app or a passkey. Set one up to go on.',
    factorChoice: 'Second factor',
    totpTab: 'Authenticator app',
    passkeyTab: 'Passkey',
    usePasskey: 'Use a passkey',
    passkeyTitle: 'Add a passkey',
    passkeyIntro:
      'A passkey is kept by this device or a security key and confirmed with its screen lock, fingerprint or PIN.',
    passkeyName: 'Name of the passkey',
    passkeyNameHint: 'To tell your passkeys apart, for example “Work laptop”.',
    addPasskey: 'Add passkey',
    passkeyAdded: 'Passkey “{{name}}” added.',
    passkeyCancelled: 'The browser did not use a passkey: its prompt was closed or timed out. Try again.',
    passkeyRegistered: 'This authenticator already holds one of your passkeys.',
    passkeyUnsupported: 'This browser cannot use passkeys.',
    passkeyRejected: 'That passkey was not accepted. Try again, or use another one.',
    passkeyExpired: 'The sign-in waited too long. Enter your password again.',
  },
  por: {
    enrolTitle: 'Configurar um segundo fator',
    enrolRequired:
      'Proprietários confirmam cada acesso com um segundo fator: um aplicativo autenticador ou uma chave de acesso. Configure um para continuar.',
    factorChoice: 'Segundo fator',
    totpTab: 'Aplicativo autenticador',
    passkeyTab: 'Chave de acesso',
    usePasskey: 'Usar uma chave de acesso',
    passkeyTitle: 'Adicionar uma chave de acesso',
    passkeyIntro:
      'Uma chave de acesso fica guardada neste dispositivo ou numa chave de segurança e é confirmada com o bloqueio de tela, a impressão digital ou o PIN.',
    passkeyName: 'Nome da chave de acesso',
    passkeyNameHint: 'Para distinguir suas chaves de acesso, por exemplo “Notebook do trabalho”.',
    addPasskey: 'Adicionar chave de acesso',
    passkeyAdded: 'Chave de acesso “{{name}}” adicionada.',
    passkeyCancelled:
      'O navegador não usou nenhuma chave de acesso: a janela foi fechada ou o tempo acabou. Tente novamente.',
    passkeyRegistered: 'Este autenticador já guarda uma das suas chaves de acesso.',
    passkeyUnsupported: 'Este navegador não permite usar chaves de acesso.',
    passkeyRejected: 'Essa chave de acesso não foi aceita. Tente novamente ou use outra.',
    passkeyExpired: 'O acesso esperou demais. Digite a sua senha novamente.',
  },
  zh: {
    enrolTitle: '设置第二验证因素',
    enrolRequired: '所有者每次登录都需用第二验证因素确认：验证器应用或通行密钥。请设置其中一种后继续。',
    factorChoice: '第二验证因素',
    totpTab: '验证器应用',
    passkeyTab: '通行密钥',
    usePasskey: '使用通行密钥',
    passkeyTitle: '添加通行密钥',
    passkeyIntro: '通行密钥保存在本设备或安全密钥中，用屏幕锁、指纹或 PIN 确认。',
    passkeyName: '通行密钥名称',
    passkeyNameHint: '用于区分您的通行密钥，例如“办公笔记本”。',
    addPasskey: '添加通行密钥',
    passkeyAdded: '已添加通行密钥“{{name}}”。',
    passkeyCancelled: '浏览器未使用通行密钥：提示已关闭或已超时。请重试。',
    passkeyRegistered: '此验证器中已有您的一个通行密钥。',
    passkeyUnsupported: '此浏览器无法使用通行密钥。',
    passkeyRejected: '该通行密钥未被接受。请重试，或使用其他通行密钥。',
    passkeyExpired: '登录等待时间过长，请重新输入密码。',
  },
});
