import { Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import {
  adminGetCurrencies,
  adminGetPlans,
  adminOrderPlans,
  adminRemovePackage,
  adminSetPlanVisible,
  type CatalogPackage,
  type CatalogPlan,
  formatGb,
  formatMinor,
  PLAN_GROUPS,
  type PlanGroup,
  REQUEST_LANGUAGE,
} from '@mutenet/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { consoleCall } from '../../api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ScrollTable } from '../../components/scroll-table';
import { ErrorAlert } from '../../error-alert';
import { useText } from '../../i18n';
import { useSession } from '../../session/use-session';
import { Currencies } from './currencies';
import { catalogStrings } from './i18n';
import { PackageEditor } from './package-editor';
import { PlanEditor } from './plan-editor';

const CATALOG_KEY = ['console', 'catalog'] as const;
const GROUP_TITLE = { traffic: 'groupTraffic', durational: 'groupDurational' } as const;

/** What is being edited: a plan (null: a new one), or a package of a plan (null: a new one). */
type Editing =
  | { kind: 'plan'; plan: CatalogPlan | null }
  | { kind: 'package'; planId: number; pkg: CatalogPackage | null };

/** The button that keeps the focus after a move: the same button, found again once the list is redrawn. */
type Moved = { planId: number; direction: 'up' | 'down' };

function usePlanName() {
  const { language } = useText(catalogStrings);
  return (plan: CatalogPlan) => plan.names[REQUEST_LANGUAGE[language]];
}

function Prices({ pkg }: { pkg: CatalogPackage }) {
  const { t } = useText(catalogStrings);
  return (
    <Stack gap={0}>
      {pkg.prices.map((price) => (
        <Text key={price.currency} size="sm">
          {price.currency} {formatMinor(price.real, price.decimals)}
          {price.price !== price.real && (
            <Text span c="dimmed" size="sm">
              {' '}
              ({t('oldPrice', { amount: formatMinor(price.price, price.decimals) })})
            </Text>
          )}
        </Text>
      ))}
    </Stack>
  );
}

function Packages({
  plan,
  canWrite,
  onEdit,
  onRemove,
}: {
  plan: CatalogPlan;
  canWrite: boolean;
  onEdit: (pkg: CatalogPackage) => void;
  onRemove: (pkg: CatalogPackage) => void;
}) {
  const { t } = useText(catalogStrings);
  const name = usePlanName()(plan);
  if (plan.packages.length === 0) return <Text c="dimmed">{t('noPackages')}</Text>;
  return (
    <ScrollTable
      minWidth={560}
      label={t('packagesOf', { name })}
      columns={[t('label'), t('days'), t('trafficGb'), t('prices'), canWrite && t('actions')]}
    >
      {plan.packages.map((pkg) => (
        <Table.Tr key={pkg.id}>
          <Table.Td>{pkg.label}</Table.Td>
          <Table.Td>{pkg.days}</Table.Td>
          <Table.Td>{formatGb(pkg.trafficBytes)}</Table.Td>
          <Table.Td>
            <Prices pkg={pkg} />
          </Table.Td>
          {canWrite && (
            <Table.Td>
              <Group gap="xs" role="group" aria-label={t('packageActions', { label: pkg.label })}>
                <Button size="xs" variant="default" onClick={() => onEdit(pkg)}>
                  {t('edit')}
                </Button>
                <Button size="xs" variant="default" color="red" onClick={() => onRemove(pkg)}>
                  {t('removePackage')}
                </Button>
              </Group>
            </Table.Td>
          )}
        </Table.Tr>
      ))}
    </ScrollTable>
  );
}

function PlanCard({
  plan,
  first,
  last,
  canWrite,
  onMove,
  onVisible,
  onEdit,
  onAddPackage,
  onEditPackage,
  onRemovePackage,
}: {
  plan: CatalogPlan;
  first: boolean;
  last: boolean;
  canWrite: boolean;
  onMove: (direction: Moved['direction']) => void;
  onVisible: () => void;
  onEdit: () => void;
  onAddPackage: () => void;
  onEditPackage: (pkg: CatalogPackage) => void;
  onRemovePackage: (pkg: CatalogPackage) => void;
}) {
  const { t } = useText(catalogStrings);
  const name = usePlanName()(plan);
  return (
    <Card withBorder component="li" aria-labelledby={`plan-${plan.id}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs">
            <Title order={3} size="h4" id={`plan-${plan.id}`}>
              {name}
            </Title>
            <Text size="sm" fw={700} data-testid="plan-state">
              {plan.visible ? t('visible') : t('hidden')}
            </Text>
          </Group>
          {canWrite && (
            <Group gap="xs" role="group" aria-label={t('planActions', { name })}>
              <Button
                size="xs"
                variant="default"
                id={`move-up-${plan.id}`}
                aria-label={t('moveUp', { name })}
                disabled={first}
                onClick={() => onMove('up')}
              >
                {t('up')}
              </Button>
              <Button
                size="xs"
                variant="default"
                id={`move-down-${plan.id}`}
                aria-label={t('moveDown', { name })}
                disabled={last}
                onClick={() => onMove('down')}
              >
                {t('down')}
              </Button>
              <Button size="xs" variant="default" onClick={onVisible}>
                {plan.visible ? t('hide') : t('show')}
              </Button>
              <Button size="xs" variant="default" onClick={onEdit}>
                {t('edit')}
              </Button>
              <Button size="xs" onClick={onAddPackage}>
                {t('addPackage')}
              </Button>
            </Group>
          )}
        </Group>
        <Packages plan={plan} canWrite={canWrite} onEdit={onEditPackage} onRemove={onRemovePackage} />
      </Stack>
    </Card>
  );
}

/** The plans of each group with their packages and prices, and the currencies; changes for catalog.write. */
export default function CatalogScreen() {
  const { t } = useText(catalogStrings);
  const queryClient = useQueryClient();
  const canWrite = useSession().data?.permissions.includes('catalog.write') ?? false;
  const [editing, setEditing] = useState<Editing | null>(null);
  const [removing, setRemoving] = useState<CatalogPackage | null>(null);
  const [moved, setMoved] = useState<Moved | null>(null);
  const plans = useQuery({ queryKey: [...CATALOG_KEY, 'plans'], queryFn: () => consoleCall(adminGetPlans) });
  const currencies = useQuery({
    queryKey: [...CATALOG_KEY, 'currencies'],
    queryFn: () => consoleCall(adminGetCurrencies),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: CATALOG_KEY });
  const saved = () => {
    setEditing(null);
    void refresh();
  };

  const order = useMutation({
    mutationFn: ({ group, planIds }: { group: PlanGroup; planIds: number[] }) =>
      consoleCall(adminOrderPlans, { body: { group, planIds } }),
    onSuccess: (answer) => queryClient.setQueryData([...CATALOG_KEY, 'plans'], answer),
  });
  const visible = useMutation({
    mutationFn: (plan: CatalogPlan) =>
      consoleCall(adminSetPlanVisible, { params: { id: plan.id }, body: { visible: !plan.visible } }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (pkg: CatalogPackage) => consoleCall(adminRemovePackage, { params: { id: pkg.id } }),
    onSuccess: () => {
      setRemoving(null);
      void refresh();
    },
  });

  // A moved plan's button is drawn anew in its new place: the focus goes back to it (or to its other arrow at an end).
  useEffect(() => {
    if (!moved || order.isPending) return;
    const same = document.getElementById(`move-${moved.direction}-${moved.planId}`);
    const other = document.getElementById(`move-${moved.direction === 'up' ? 'down' : 'up'}-${moved.planId}`);
    (same && !same.hasAttribute('disabled') ? same : other)?.focus();
  }, [moved, order.isPending]);

  const move = (group: PlanGroup, index: number, direction: Moved['direction']) => {
    const ids = (plans.data?.[group] ?? []).map((plan) => plan.id);
    const to = direction === 'up' ? index - 1 : index + 1;
    const [planId] = ids.splice(index, 1);
    if (planId === undefined) return;
    ids.splice(to, 0, planId);
    setMoved({ planId, direction });
    order.mutate({ group, planIds: ids });
  };

  const editedPlanId = editing?.kind === 'package' ? editing.planId : 0;
  return (
    <Stack>
      <Title order={1}>{t('title')}</Title>
      <ErrorAlert error={plans.error ?? currencies.error ?? order.error ?? visible.error} />
      {canWrite && (
        <Group>
          <Button onClick={() => setEditing({ kind: 'plan', plan: null })}>{t('newPlan')}</Button>
        </Group>
      )}
      {plans.data &&
        PLAN_GROUPS.map((group) => (
          <Stack key={group} component="section" aria-labelledby={`group-${group}`}>
            <Title order={2} id={`group-${group}`}>
              {t(GROUP_TITLE[group])}
            </Title>
            {plans.data[group].length === 0 ? (
              <Text c="dimmed">{t('noPlans')}</Text>
            ) : (
              <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
                {plans.data[group].map((plan, index, all) => (
                  <PlanCard
                    key={plan.id}
                    plan={plan}
                    first={index === 0}
                    last={index === all.length - 1}
                    canWrite={canWrite}
                    onMove={(direction) => move(group, index, direction)}
                    onVisible={() => visible.mutate(plan)}
                    onEdit={() => setEditing({ kind: 'plan', plan })}
                    onAddPackage={() => setEditing({ kind: 'package', planId: plan.id, pkg: null })}
                    onEditPackage={(pkg) => setEditing({ kind: 'package', planId: plan.id, pkg })}
                    onRemovePackage={setRemoving}
                  />
                ))}
              </Stack>
            )}
          </Stack>
        ))}
      {currencies.data && (
        <Currencies currencies={currencies.data.currencies} canWrite={canWrite} onChanged={() => void refresh()} />
      )}
      {editing?.kind === 'plan' && (
        <PlanEditor plan={editing.plan} opened onClose={() => setEditing(null)} onSaved={saved} />
      )}
      {editing?.kind === 'package' && (
        <PackageEditor
          key={`${editedPlanId}-${editing.pkg?.id ?? 'new'}`}
          planId={editedPlanId}
          pkg={editing.pkg}
          currencies={currencies.data?.currencies ?? []}
          opened
          onClose={() => setEditing(null)}
          onSaved={saved}
        />
      )}
      <ConfirmDialog
        opened={removing !== null}
        title={t('removeTitle')}
        message={t('removeConfirm', { label: removing?.label ?? '' })}
        confirmLabel={t('removePackage')}
        loading={remove.isPending}
        error={remove.error}
        onConfirm={() => removing && remove.mutate(removing)}
        onClose={() => setRemoving(null)}
      />
    </Stack>
  );
}
