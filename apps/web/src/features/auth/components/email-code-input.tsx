import '@mantine/core/styles/Button.css';
import { Box, Button, Group, Text, TextInput } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useMessage } from '../../../i18n/use-language';

/** The email-code field and its Send button; under the row, a hint asks for the picture code while it is empty. */
export function EmailCodeInput({
  value,
  onChange,
  error,
  onSend,
  sending,
  cooldown,
  pictureCodeMissing,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string | boolean | undefined;
  onSend: () => void;
  sending: boolean;
  cooldown: number;
  pictureCodeMissing: boolean;
}) {
  const { t } = useTranslation();
  const message = useMessage();
  const hintId = useId();
  const counting = cooldown > 0;

  return (
    <Box>
      <Group align="flex-start" gap="xs" wrap="nowrap">
        <TextInput
          name="emailCode"
          label={t('auth.emailCode')}
          value={value}
          onChange={(event) => onChange(event.currentTarget.value)}
          error={error}
          inputMode="numeric"
          autoComplete="one-time-code"
          style={{ flex: 1 }}
          data-testid="emailCode"
        />
        <Button
          type="button"
          variant="outline"
          mt={26}
          miw={96}
          onClick={onSend}
          loading={sending}
          disabled={counting}
          aria-label={counting ? t('common.resendIn', { seconds: cooldown }) : t('auth.sendEmailCode')}
          aria-describedby={pictureCodeMissing ? hintId : undefined}
          data-testid="send-email-code"
        >
          {counting ? `${cooldown} s` : t('common.send')}
        </Button>
      </Group>
      {pictureCodeMissing ? (
        <Text id={hintId} size="xs" c="dimmed" mt={4} data-testid="picture-code-hint">
          {message('PICTURE_CODE_FIRST')}
        </Text>
      ) : null}
    </Box>
  );
}
