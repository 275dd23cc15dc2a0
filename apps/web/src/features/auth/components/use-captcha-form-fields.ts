import { useEffect } from 'react';
import { useFormFields } from '../../../lib/use-form-fields';
import type { CaptchaState } from './captcha-input';

/**
 * The fields of a form with a picture code (`useFormFields`): the answer typed for a picture is emptied when another
 * picture comes, as an answer holds for its own picture only.
 */
export function useCaptchaFormFields<F extends string>(empty: Record<F | 'imgCode', string>, captcha: CaptchaState) {
  const fields = useFormFields<F | 'imgCode'>(empty);
  const { setValues } = fields;
  const imgId = captcha.data?.imgId;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new picture needs a new answer
  useEffect(() => {
    setValues((current) => ({ ...current, imgCode: '' }));
  }, [imgId, setValues]);
  return fields;
}
