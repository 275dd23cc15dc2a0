import {
  EMAIL_CODE_RESEND_SECONDS,
  type EmailCodeAction,
  type ErrorKey,
  SendEmailCodeBodySchema,
} from '@mutenet/contract';
import { useTranslation } from 'react-i18next';
import { toastSuccess } from '../../../lib/notify';
import { validate } from '../../../lib/validate';
import { useSendEmailCode } from '../api/send-email-code';
import type { CaptchaState } from './captcha-input';
import { useCooldown } from './use-cooldown';

export type EmailCodeField = 'imgCode' | 'email';

/**
 * Sends the email code of a register or reset form: checks the picture code and the email first,
 * then calls the server. The captcha is used up by the call, so a new one is loaded whatever the answer.
 */
export function useEmailCodeSender(
  action: EmailCodeAction,
  { captcha, onInvalid }: { captcha: CaptchaState; onInvalid: (field: EmailCodeField, key: ErrorKey) => void },
) {
  const { t } = useTranslation();
  const cooldown = useCooldown(EMAIL_CODE_RESEND_SECONDS);
  const mutation = useSendEmailCode(action);

  const send = (values: { email: string; imgCode: string }) => {
    const result = validate(SendEmailCodeBodySchema, {
      imgId: captcha.data?.imgId ?? '',
      imgCode: values.imgCode,
      email: values.email,
    });
    if (!result.ok) {
      onInvalid(result.error === 'PICTURE_CODE_FIRST' ? 'imgCode' : 'email', result.error);
      return;
    }
    mutation.mutate(result.data, {
      onSuccess: () => {
        toastSuccess(t('notice.sentSuccessfully'));
        cooldown.start();
      },
      onSettled: () => void captcha.refetch(),
    });
  };

  return { send, sending: mutation.isPending, cooldown: cooldown.remaining };
}
