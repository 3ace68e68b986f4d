/**
 * A monthly cost budget for the account, told to the alarm topic: at 80 % of it spent, and when AWS
 * forecasts the month past it. `cdk deploy -c monthlyBudgetUsd=N` sets it (docs/aws.md, Observability).
 */
import * as budgets from 'aws-cdk-lib/aws-budgets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';

export const DEFAULT_MONTHLY_BUDGET_USD = 100;
const BUDGET_ALERTS = [
  { notificationType: 'ACTUAL', threshold: 80 },
  { notificationType: 'FORECASTED', threshold: 100 },
] as const;

export function costBudget(scope: Construct, topic: sns.ITopic, limitUsd: number): budgets.CfnBudget {
  topic.addToResourcePolicy(
    new iam.PolicyStatement({
      principals: [new iam.ServicePrincipal('budgets.amazonaws.com')],
      actions: ['sns:Publish'],
      resources: [topic.topicArn],
    }),
  );
  return new budgets.CfnBudget(scope, 'MonthlyCostBudget', {
    budget: { budgetType: 'COST', timeUnit: 'MONTHLY', budgetLimit: { amount: limitUsd, unit: 'USD' } },
    notificationsWithSubscribers: BUDGET_ALERTS.map(({ notificationType, threshold }) => ({
      notification: { notificationType, comparisonOperator: 'GREATER_THAN', threshold, thresholdType: 'PERCENTAGE' },
      subscribers: [{ subscriptionType: 'SNS', address: topic.topicArn }],
    })),
  });
}

/** CDK context `monthlyBudgetUsd`: a positive number of dollars; unset is the default. */
export function monthlyBudgetFromContext(scope: Construct): number {
  const raw: unknown = scope.node.tryGetContext('monthlyBudgetUsd');
  if (raw === undefined || raw === '') return DEFAULT_MONTHLY_BUDGET_USD;
  const usd = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isFinite(usd) || usd <= 0) throw new Error(`context monthlyBudgetUsd must be a positive number of dollars, not ${JSON.stringify(raw)}`);
  return usd;
}
