import { Button, Group, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import {
  type AdminNotice,
  adminClearNotice,
  adminGetNotice,
  adminSetNotice,
  NOTICE_TEXT_MAX,
  type SetNoticeBody,
} from '@mutenet/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { NoticeView } from '../../../components/ui/notice-view';
import { consoleCall } from '../../api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorAlert } from '../../error-alert';
import { useText } from '../../i18n';
import { noticeStrings } from './i18n';

const NOTICE_KEY = ['console', 'notice'] as const;

/** The notice's languages as the contract keys them, with the label of each in this screen's strings. */
const LANGUAGES = [
  { key: 'en', label: 'en' },
  { key: 'pt-BR', label: 'pt' },
  { key: 'zh-Hans', label: 'zh' },
] as const;
type Texts = Record<(typeof LANGUAGES)[number]['key'], string>;
const EMPTY: Texts = { en: '', 'pt-BR': '', 'zh-Hans': '' };

/** The body `admin notice set` takes too: English, and the other languages where they were written. */
function bodyOf(texts: Texts): SetNoticeBody {
  return {
    en: texts.en,
    ...(texts['pt-BR'].trim() ? { 'pt-BR': texts['pt-BR'] } : {}),
    ...(texts['zh-Hans'].trim() ? { 'zh-Hans': texts['zh-Hans'] } : {}),
  };
}

/** The dashboard's notice in the three languages, each with a preview as customers will see it; save and clear. */
export default function NoticeScreen() {
  const { t } = useText(noticeStrings);
  const queryClient = useQueryClient();
  const notice = useQuery({ queryKey: NOTICE_KEY, queryFn: () => consoleCall(adminGetNotice) });
  const [texts, setTexts] = useState<Texts>(EMPTY);
  const [missingEnglish, setMissingEnglish] = useState(false);
  const [done, setDone] = useState<'saved' | 'cleared' | null>(null);
  const [confirming, setConfirming] = useState(false);

  // The form starts from the notice as stored (and again after a save or a clear).
  useEffect(() => {
    if (notice.data) setTexts(notice.data.texts ?? EMPTY);
  }, [notice.data]);

  const settle = (result: AdminNotice, outcome: 'saved' | 'cleared') => {
    queryClient.setQueryData(NOTICE_KEY, result);
    setDone(outcome);
  };
  const save = useMutation({
    mutationFn: () => consoleCall(adminSetNotice, { body: bodyOf(texts) }),
    onSuccess: (result) => settle(result, 'saved'),
  });
  const clear = useMutation({
    mutationFn: () => consoleCall(adminClearNotice),
    onSuccess: (result) => {
      setConfirming(false);
      settle(result, 'cleared');
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    const missing = texts.en.trim() === '';
    setMissingEnglish(missing);
    if (!missing) save.mutate();
  };

  return (
    <Stack>
      <Title order={1}>{t('title')}</Title>
      <Text>{t('intro')}</Text>
      <ErrorAlert error={notice.error} />
      {notice.data && !notice.data.texts && <Text fw={700}>{t('none')}</Text>}
      {notice.data && (
        <form onSubmit={submit} noValidate aria-label={t('title')}>
          <Stack>
            {LANGUAGES.map(({ key, label }) => {
              const shown = texts[key].trim() ? texts[key] : texts.en;
              return (
                <SimpleGrid key={key} cols={{ base: 1, md: 2 }}>
                  <Textarea
                    label={t(label)}
                    description={key === 'en' ? t('requiredHint') : t('sameAsEnglish')}
                    required={key === 'en'}
                    error={key === 'en' && missingEnglish ? t('englishRequired') : undefined}
                    resize="vertical"
                    rows={4}
                    maxLength={NOTICE_TEXT_MAX}
                    value={texts[key]}
                    onChange={(event) => {
                      const { value } = event.currentTarget;
                      setTexts((current) => ({ ...current, [key]: value }));
                    }}
                  />
                  <Stack gap={4}>
                    <Text size="sm" fw={500}>
                      {t('preview', { language: t(label) })}
                    </Text>
                    {shown.trim() && <NoticeView content={shown} label={`${t('previewLabel')}: ${t(label)}`} />}
                  </Stack>
                </SimpleGrid>
              );
            })}
            <ErrorAlert error={save.error ?? clear.error} />
            <Text role="status" aria-live="polite">
              {done ? t(done) : ''}
            </Text>
            <Group>
              <Button type="submit" loading={save.isPending}>
                {t('save')}
              </Button>
              {notice.data.texts && (
                <Button color="red" variant="outline" onClick={() => setConfirming(true)}>
                  {t('clear')}
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      )}
      <ConfirmDialog
        opened={confirming}
        title={t('clearTitle')}
        message={t('clearBody')}
        confirmLabel={t('confirmClear')}
        loading={clear.isPending}
        onConfirm={() => clear.mutate()}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
