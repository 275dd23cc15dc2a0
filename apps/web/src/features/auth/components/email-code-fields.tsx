import { CaptchaInput, type CaptchaState } from './captcha-input';
import { EmailCodeInput } from './email-code-input';
import type { useEmailCodeSender } from './use-email-code-sender';

type CodeField = 'imgCode' | 'emailCode';

/** The picture code and the email code it lets the customer ask for: the pair register and reset ask for alike. */
export function EmailCodeFields({
  captcha,
  sender,
  values,
  change,
  errorFor,
}: {
  captcha: CaptchaState;
  sender: ReturnType<typeof useEmailCodeSender>;
  values: Record<CodeField | 'email', string>;
  change: (field: CodeField) => (value: string) => void;
  errorFor: (field: CodeField) => string | boolean | undefined;
}) {
  return (
    <>
      <CaptchaInput captcha={captcha} value={values.imgCode} onChange={change('imgCode')} error={errorFor('imgCode')} />
      <EmailCodeInput
        value={values.emailCode}
        onChange={change('emailCode')}
        error={errorFor('emailCode')}
        onSend={() => sender.send(values)}
        sending={sender.sending}
        cooldown={sender.cooldown}
        pictureCodeMissing={values.imgCode.trim() === ''}
      />
    </>
  );
}
