import { Button, Checkbox, Fieldset, Group, NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import {
  type AdminNode,
  CONGESTION_CONTROLS,
  FINGERPRINTS,
  FLOWS,
  NETWORKS,
  type Network,
  type NewNodeBody,
  type NodeSettingsBody,
  PROTOCOLS,
  type Protocol,
  type SettingKey,
  SS_CIPHERS,
  settingKeysFor,
  type TlsMode,
  tlsModesFor,
} from '@mutenet/contract';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../api';
import { ErrorAlert } from '../../error-alert';
import { useText } from '../../i18n';
import { nodesStrings } from './i18n';

/** The settings chosen from a list (TLS's list is the protocol's, `tlsModesFor`). */
const CHOICES: Partial<Record<SettingKey, readonly string[]>> = {
  fingerprint: FINGERPRINTS,
  flow: FLOWS,
  cipher: SS_CIPHERS,
  congestionControl: CONGESTION_CONTROLS,
};

/** Keys the console never reads back (only the node needs them): left empty, the stored one is kept. */
const SECRET_KEYS: readonly SettingKey[] = ['realityPrivateKey'];

type Values = {
  en: string;
  pt: string;
  zh: string;
  protocol: Protocol;
  host: string;
  port: string;
  rate: string;
  labels: string;
  visible: boolean;
  settings: Partial<Record<SettingKey, string>>;
};

function initialValues(node: AdminNode | undefined): Values {
  if (!node) {
    return {
      en: '',
      pt: '',
      zh: '',
      protocol: 'vless',
      host: '',
      port: '443',
      rate: '1',
      labels: '',
      visible: true,
      settings: {},
    };
  }
  const settings = Object.fromEntries(
    Object.entries(node.settings).filter((entry): entry is [SettingKey, string] => typeof entry[1] === 'string'),
  );
  return {
    en: node.names.en,
    pt: node.names['pt-BR'],
    zh: node.names['zh-Hans'],
    protocol: node.protocol,
    host: node.host,
    port: String(node.port),
    rate: String(node.rate),
    labels: node.labels.join(', '),
    visible: node.visible,
    settings,
  };
}

/** The transport and TLS the form stands on: the chosen ones, or the protocol's defaults. */
function basis(values: Values): { network: Network; tls: TlsMode } {
  const modes = tlsModesFor(values.protocol);
  const tls = modes.find((mode) => mode === values.settings.tls) ?? modes[0] ?? 'none';
  const network = NETWORKS.find((entry) => entry === values.settings.network) ?? 'tcp';
  return { network, tls };
}

/** What the form sends: only the settings its protocol, transport and TLS take (the contract's rule), and those filled. */
export function bodyOf(values: Values): NewNodeBody {
  const keys = settingKeysFor(values.protocol, basis(values));
  const settings: Record<string, string> = {};
  for (const key of keys) {
    const value = key === 'network' || key === 'tls' ? basis(values)[key] : values.settings[key]?.trim();
    if (value) settings[key] = value;
  }
  return {
    names: { en: values.en, 'pt-BR': values.pt, 'zh-Hans': values.zh },
    protocol: values.protocol,
    host: values.host.trim(),
    port: Number(values.port),
    rate: Number(values.rate),
    labels: values.labels
      .split(',')
      .map((label) => label.trim())
      .filter(Boolean),
    visible: values.visible,
    settings: settings as NodeSettingsBody,
  };
}

/** The field the server named in a refused setting (NODE_SETTING_INVALID's `data.field`). */
function refusedField(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const data = error.details.data as { field?: unknown } | undefined;
  return typeof data?.field === 'string' ? data.field : undefined;
}

/**
 * Adds or edits a node. It shows only the settings the chosen protocol takes with the chosen transport and TLS: the
 * same rule (`settingKeysFor`) the server and the command line apply.
 */
export function NodeForm({
  node,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  node?: AdminNode;
  pending: boolean;
  error: unknown;
  onSubmit: (body: NewNodeBody) => void;
  onCancel: () => void;
}) {
  const { t } = useText(nodesStrings);
  const [values, setValues] = useState(() => initialValues(node));
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((old) => ({ ...old, [key]: value }));
  const setSetting = (key: SettingKey, value: string) =>
    setValues((old) => ({ ...old, settings: { ...old.settings, [key]: value } }));
  const current = basis(values);
  const keys = settingKeysFor(values.protocol, current);
  const refused = refusedField(error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(bodyOf(values));
  };
  const text = (key: keyof Values & ('en' | 'pt' | 'zh' | 'host' | 'port' | 'rate' | 'labels')) => ({
    value: values[key],
    onChange: (event: { currentTarget: { value: string } }) => set(key, event.currentTarget.value),
  });

  return (
    <form onSubmit={submit} noValidate aria-label={node ? t('editTitle', { name: node.names.en }) : t('addTitle')}>
      <Stack gap="sm">
        <ErrorAlert error={error} />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label={t('nameEn')} required maxLength={64} {...text('en')} />
          <TextInput label={t('namePt')} maxLength={64} {...text('pt')} />
          <TextInput label={t('nameZh')} maxLength={64} {...text('zh')} />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <NativeSelect
            label={t('protocol')}
            data={[...PROTOCOLS]}
            value={values.protocol}
            onChange={(event) => set('protocol', event.currentTarget.value as Protocol)}
          />
          <TextInput label={t('host')} description={t('hostHint')} required {...text('host')} />
          <TextInput label={t('port')} type="number" min={1} max={65535} required {...text('port')} />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label={t('rate')} description={t('rateHint')} type="number" min={0} step="any" {...text('rate')} />
          <TextInput label={t('labels')} description={t('labelsHint')} {...text('labels')} />
          <Checkbox
            mt="lg"
            label={t('visible')}
            checked={values.visible}
            onChange={(event) => set('visible', event.currentTarget.checked)}
          />
        </SimpleGrid>
        {keys.length > 0 && (
          <Fieldset legend={t('settings')}>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {keys.map((key) => {
                const fieldError = refused === key ? (error as ApiError).message : undefined;
                if (key === 'network' || key === 'tls') {
                  return (
                    <NativeSelect
                      key={key}
                      label={t(key)}
                      data={[...(key === 'tls' ? tlsModesFor(values.protocol) : NETWORKS)]}
                      value={current[key]}
                      error={fieldError}
                      onChange={(event) => setSetting(key, event.currentTarget.value)}
                    />
                  );
                }
                const choices = CHOICES[key];
                if (choices) {
                  // Unset, the server takes its default, or names the setting when the protocol needs it (cipher).
                  return (
                    <NativeSelect
                      key={key}
                      label={t(key)}
                      data={[{ value: '', label: t('notSet') }, ...choices]}
                      value={values.settings[key] ?? ''}
                      error={fieldError}
                      onChange={(event) => setSetting(key, event.currentTarget.value)}
                    />
                  );
                }
                return (
                  <TextInput
                    key={key}
                    label={t(key)}
                    description={node && SECRET_KEYS.includes(key) ? t('keepSecret') : undefined}
                    value={values.settings[key] ?? ''}
                    error={fieldError}
                    onChange={(event) => setSetting(key, event.currentTarget.value)}
                  />
                );
              })}
            </SimpleGrid>
          </Fieldset>
        )}
        <Group>
          <Button type="submit" loading={pending}>
            {node ? t('save') : t('add')}
          </Button>
          <Button variant="default" onClick={onCancel}>
            {t('cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
