/** Every plan side by side: price, allowance and caps, and the change each would be from the plan in force. */
import { Badge, Button, Table, Text } from '@mantine/core';
import type { Account, Plan, PlanName, Plans } from '#client/types';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ResponsiveTable } from '../../components/ResponsiveTable';
import { planRow, planTitle, priceOf, type PlanRow } from './plan-words';

interface Props {
  plans: Plans;
  account: Account;
  /** Resolves once the change is made (a downgrade's dialog closes then). */
  onChoose: (plan: PlanName) => Promise<unknown>;
  busy: boolean;
}

function PlanAction({ plan, row, account, onChoose, busy }: { plan: Plan; row: PlanRow; account: Account; onChoose: Props['onChoose']; busy: boolean }) {
  if (row.unavailable) {
    return (
      <Text size="sm" c="gray.7">
        {row.unavailable}
      </Text>
    );
  }
  if (!row.action) return null;
  if (row.action.kind === 'downgrade') {
    return (
      <ConfirmButton
        label={row.action.label}
        color="violet"
        variant="default"
        size="xs"
        title={`${row.action.label}?`}
        message={`${planTitle(account.plan)} stays until the next billing period starts; then ${planTitle(plan.name)} takes over with ${plan.monthly_allowance} videos a month. You can change your mind until then.`}
        onConfirm={() => onChoose(plan.name)}
      />
    );
  }
  return (
    <Button size="xs" variant={row.action.kind === 'upgrade' ? 'filled' : 'default'} disabled={busy} onClick={() => void onChoose(plan.name).catch(() => undefined)}>
      {row.action.label}
    </Button>
  );
}

export function PlansTable({ plans, account, onChoose, busy }: Props) {
  const order = plans.plans.map((plan) => plan.name);
  return (
    <ResponsiveTable columns={['Plan', 'Price', 'Videos a month', 'Saved reactions', 'Avatars', 'AI helpers a day', 'Change']} minWidth={760} verticalSpacing="sm" aria-label="Plans">
      {plans.plans.map((plan) => {
        const row = planRow(plan, account, order, plans.billing);
        return (
          <Table.Tr key={plan.name} aria-current={plan.name === account.plan ? 'true' : undefined}>
            <Table.Td data-label="Plan">
              <Text fw={600}>{planTitle(plan.name)}</Text>
              {row.badge &&
                (plan.name === account.plan ? (
                  <Badge variant="light">{row.badge}</Badge>
                ) : (
                  // A date is too long for a badge, which cuts its text on a phone.
                  <Text size="xs" fw={600}>
                    {row.badge}
                  </Text>
                ))}
            </Table.Td>
            <Table.Td data-label="Price">{priceOf(plan.price)}</Table.Td>
            <Table.Td data-label="Videos a month">{plan.monthly_allowance}</Table.Td>
            <Table.Td data-label="Saved reactions">{plan.library_cap}</Table.Td>
            <Table.Td data-label="Avatars">{plan.avatar_cap}</Table.Td>
            <Table.Td data-label="AI helpers a day">{plan.ai_helpers_per_day}</Table.Td>
            <Table.Td data-label="Change">
              <PlanAction plan={plan} row={row} account={account} onChoose={onChoose} busy={busy} />
            </Table.Td>
          </Table.Tr>
        );
      })}
    </ResponsiveTable>
  );
}
