/** Usage: the plan and its period, the video allowance, and how full the library and avatars are. */
import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { currentPlanLine } from '../plans/plan-words';
import { QueryStatus } from '../../components/QueryStatus';
import { AllowanceCard } from './AllowanceCard';
import { MeterCard } from './MeterCard';
import { useUsage, type Usage } from './usage-api';

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
// The period's end is exclusive (the next period's start): show the last day in it.
const lastDay = (iso: string) => day(new Date(Date.parse(iso) - 1).toISOString());

function PlanCard({ plan, period }: Pick<Usage, 'plan' | 'period'>) {
  return (
    <Paper withBorder p="lg">
      <Group justify="space-between" wrap="wrap">
        <Group gap="xs">
          <Text fw={500}>Plan</Text>
          <Badge size="lg" variant="light">
            {plan.name}
          </Badge>
        </Group>
        <Text size="sm">
          This period: {day(period.start)} – {lastDay(period.end)} (UTC)
        </Text>
      </Group>
      <Text size="sm" mt="xs">
        {plan.monthly_allowance} videos a month, {plan.library_cap} saved reactions, {plan.avatar_cap} avatars.
        {plan.pending_plan && ` ${currentPlanLine({ plan: plan.name, pending_plan: plan.pending_plan, plan_changes_at: plan.plan_changes_at })}`}{' '}
        <Anchor component={Link} to="/plans" size="sm" underline="always">
          Change plan
        </Anchor>
      </Text>
    </Paper>
  );
}

export default function UsagePage() {
  const usage = useUsage();
  return (
    <>
      <PageHeader title="Usage" description="What your plan allows this period, and how much of it is used." />
      <QueryStatus query={usage} loading="Loading usage" centered />
      {usage.data && (
        <Stack>
          <PlanCard plan={usage.data.plan} period={usage.data.period} />
          <AllowanceCard allowance={usage.data.allowance} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <MeterCard title="Reaction library" used={usage.data.library.used} cap={usage.data.library.cap} whenFull="The library is full: delete a saved reaction to keep another." />
            <MeterCard title="Avatars" used={usage.data.avatars.used} cap={usage.data.avatars.cap} whenFull="You have as many avatars as the plan allows: delete one to add another." />
          </SimpleGrid>
        </Stack>
      )}
    </>
  );
}
