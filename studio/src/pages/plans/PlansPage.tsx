/**
 * Plans: the plan table (GET /plans), the plan in force with a waiting downgrade and when it takes
 * over, and changing plan (PUT /account/plan). An upgrade holds at once; a downgrade waits for the next
 * billing period; with Stripe a paid plan is paid for first, on Stripe's own page.
 */
import { Alert, Center, Loader, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { PlanName } from '#client/types';
import { PageHeader } from '../../components/PageHeader';
import { ProblemAlert } from '../../components/ProblemAlert';
import { changeWords, currentPlanLine } from './plan-words';
import { PlansTable } from './PlansTable';
import { useAccount, useChangePlan, usePlans } from './plans-api';

const BILLING_NOTE = {
  local: 'This is the local stack: a change holds at once and nothing is charged.',
  stripe: 'A paid plan is paid for on Stripe’s page first; the plan changes once the payment is confirmed.',
  not_configured: 'No payment provider is set up on this deployment: only the free plan can be chosen.',
} as const;

export default function PlansPage() {
  const plans = usePlans();
  const account = useAccount();
  const change = useChangePlan();
  const choose = (plan: PlanName) =>
    change.mutateAsync(plan).then((answer) => {
      if (answer.change === 'checkout' && answer.checkout_url) {
        window.location.assign(answer.checkout_url);
        return;
      }
      const words = changeWords(answer);
      notifications.show({ color: 'green', title: words.title, message: words.message });
    });
  return (
    <>
      <PageHeader title="Plans" description="What each plan allows a month, and yours. An upgrade holds at once; a downgrade waits for the next billing period." />
      <Stack>
        <ProblemAlert error={plans.error ?? account.error} />
        {(plans.isPending || account.isPending) && (
          <Center p="xl">
            <Loader aria-label="Loading plans" />
          </Center>
        )}
        {account.data && (
          <Paper withBorder p="lg" component="section" aria-label="Your plan">
            <Text fw={500} data-testid="current-plan">
              {currentPlanLine(account.data)}
            </Text>
          </Paper>
        )}
        {plans.data && account.data && (
          <>
            <ProblemAlert error={change.error} onClose={change.reset} />
            <PlansTable plans={plans.data} account={account.data} onChoose={choose} busy={change.isPending} />
            <Alert variant="light" color="gray" title="Billing">
              <Text size="sm">{BILLING_NOTE[plans.data.billing]}</Text>
            </Alert>
          </>
        )}
      </Stack>
    </>
  );
}
