import { Button, Group, Modal, NativeSelect, Paper, Stack, Tabs, Text, Textarea, TextInput } from '@mantine/core';
import {
  adminAddPlan,
  adminUpdatePlan,
  type CatalogPlan,
  PLAN_CONTENT_MAX,
  PLAN_GROUPS,
  PLAN_NAME_MAX,
  type PlanGroup,
  REQUEST_LANGUAGES,
  type RequestLanguage,
} from '@mutenet/contract';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { SafeHtml } from '../../../components/ui/safe-html';
import { consoleCall } from '../../api';
import { ErrorAlert } from '../../error-alert';
import { useText } from '../../i18n';
import { catalogStrings } from './i18n';

/** Each language by its own name, as an operator who reads it looks for it. */
export const LANGUAGE_NAMES: Record<RequestLanguage, string> = {
  en: 'English',
  'pt-BR': 'Português (Brasil)',
  'zh-Hans': '简体中文',
};

type Localized = Record<RequestLanguage, string>;
const EMPTY: Localized = { en: '', 'pt-BR': '', 'zh-Hans': '' };

export const GROUP_KEY = { traffic: 'traffic', durational: 'durational' } as const;

/**
 * A plan's group, names and HTML contents in each language (a tab each), with the content shown beside it through
 * the customer panel's own sanitiser and typography: what the shop will show.
 */
export function PlanEditor({
  plan,
  opened,
  onClose,
  onSaved,
}: {
  /** The plan to change; null adds one. */
  plan: CatalogPlan | null;
  opened: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useText(catalogStrings);
  const [group, setGroup] = useState<PlanGroup>(plan?.group ?? 'traffic');
  const [names, setNames] = useState<Localized>(plan?.names ?? EMPTY);
  const [contents, setContents] = useState<Localized>(plan?.contents ?? EMPTY);
  const save = useMutation({
    mutationFn: () =>
      plan
        ? consoleCall(adminUpdatePlan, { params: { id: plan.id }, body: { group, names, contents } })
        : consoleCall(adminAddPlan, { body: { group, names, contents } }),
    onSuccess: onSaved,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const title = plan ? t('editPlan') : t('newPlan');
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="xl" closeButtonProps={{ 'aria-label': t('close') }}>
      <form onSubmit={submit} aria-label={title}>
        <Stack>
          <ErrorAlert error={save.error} />
          <NativeSelect
            label={t('group')}
            data={PLAN_GROUPS.map((value) => ({ value, label: t(GROUP_KEY[value]) }))}
            value={group}
            onChange={(event) => setGroup(event.currentTarget.value as PlanGroup)}
          />
          <Tabs defaultValue="en">
            <Tabs.List aria-label={t('languages')}>
              {REQUEST_LANGUAGES.map((language) => (
                <Tabs.Tab key={language} value={language} lang={language}>
                  {LANGUAGE_NAMES[language]}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {REQUEST_LANGUAGES.map((language) => (
              <Tabs.Panel key={language} value={language} pt="sm">
                <Stack gap="xs">
                  <TextInput
                    label={`${t('name')} (${LANGUAGE_NAMES[language]})`}
                    required
                    maxLength={PLAN_NAME_MAX}
                    lang={language}
                    value={names[language]}
                    onChange={(event) => setNames({ ...names, [language]: event.currentTarget.value })}
                  />
                  <Textarea
                    label={`${t('content')} (${LANGUAGE_NAMES[language]})`}
                    description={t('contentHint')}
                    rows={6}
                    maxLength={PLAN_CONTENT_MAX}
                    lang={language}
                    value={contents[language]}
                    onChange={(event) => setContents({ ...contents, [language]: event.currentTarget.value })}
                  />
                  <Text size="sm" fw={600} id={`preview-${language}`}>
                    {t('preview')}
                  </Text>
                  <Paper withBorder p="sm" role="region" aria-labelledby={`preview-${language}`} lang={language}>
                    <SafeHtml html={contents[language]} fz="sm" data-testid={`preview-${language}`} />
                  </Paper>
                </Stack>
              </Tabs.Panel>
            ))}
          </Tabs>
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t('save')}
            </Button>
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
