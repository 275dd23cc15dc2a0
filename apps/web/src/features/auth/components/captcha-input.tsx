import '@mantine/core/styles/Loader.css';
import { Image, Loader, TextInput, UnstyledButton } from '@mantine/core';
import { CAPTCHA_CODE_MAX_LENGTH, type Captcha } from '@mutenet/contract';
import { useTranslation } from 'react-i18next';

export type CaptchaState = { data: Captcha | undefined; isFetching: boolean; refetch: () => unknown };

const IMAGE_WIDTH = 104;
const IMAGE_HEIGHT = 34;

/** The picture-code field; the picture beside it is a button that loads a new one. */
export function CaptchaInput({
  captcha,
  value,
  onChange,
  error,
}: {
  captcha: CaptchaState;
  value: string;
  onChange: (value: string) => void;
  error?: string | boolean | undefined;
}) {
  const { t } = useTranslation();
  const refresh = (
    <UnstyledButton
      type="button"
      onClick={() => void captcha.refetch()}
      aria-label={t('auth.refreshCaptcha')}
      aria-busy={captcha.isFetching}
      data-testid="captcha-refresh"
      w={IMAGE_WIDTH}
      h={IMAGE_HEIGHT}
      style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', borderRadius: 4, overflow: 'hidden' }}
    >
      {captcha.data ? (
        <Image
          src={captcha.data.imgDat}
          alt=""
          w={IMAGE_WIDTH}
          h={IMAGE_HEIGHT}
          fit="contain"
          data-testid="captcha-picture"
          data-img-id={captcha.data.imgId}
        />
      ) : (
        <Loader size="xs" role="img" aria-label={t('auth.captchaLoading')} />
      )}
    </UnstyledButton>
  );

  return (
    <TextInput
      name="imgCode"
      label={t('auth.imgCode')}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      error={error}
      maxLength={CAPTCHA_CODE_MAX_LENGTH}
      autoComplete="off"
      autoCapitalize="off"
      spellCheck={false}
      rightSection={refresh}
      rightSectionWidth={IMAGE_WIDTH + 4}
      rightSectionPointerEvents="all"
      data-testid="imgCode"
    />
  );
}
