import '@mantine/core/styles/Title.css';
import { Stack, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { NodeTable } from '../../features/nodes/components/node-table';
import { PATHS } from '../../lib/paths';
import { inMode, useUrlOptions } from '../use-url-options';

/** Below Mantine's `sm` breakpoint, where the side menu folds into a drawer, the table drops its tags. */
const PHONE_QUERY = '(max-width: 47.99em)';

/** Node status, `/state/:from?/:lang?`: the nodes, without tags on phones and in mobile mode. */
export default function NodeStatusRoute() {
  const { t } = useTranslation();
  const { mobile } = useUrlOptions();
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} size="h2">
        {t('nav.nodeStatus')}
      </Title>
      <NodeTable compact={mobile || phone} shopHref={inMode(PATHS.shop, mobile)} />
    </Stack>
  );
}
