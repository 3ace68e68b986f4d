/**
 * The cost model (bench/cost-model.ts): the whole month's bill at 0, 1,000 and 100,000 videos, from the
 * one price table. Its fixed part is what the template holds; at 100k videos a month a video costs at
 * most $0.002 without inference; docs/aws.md prints exactly what it computes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AWS_PRICES } from '#bench/aws-prices';
import {
  ASSUMED,
  costTableMarkdown,
  FIXED_RESOURCES,
  MEASURED_VIDEO,
  monthlyCost,
  PER_VIDEO_TARGET_USD,
  perVideo,
  retentionStorageUsd,
  total,
  type Scenario,
} from '#bench/cost-model';
import { PIPELINE_FUNCTION_SIZES } from '#cloud/function-sizes';
import { resourcesOfType, synthesisedStack } from '#test-support/cdk-template';

const at = (videosPerMonth: number, changes: Partial<Scenario> = {}): Scenario => ({ videosPerMonth, notify: 'poll', engine: 'local', ...changes });
const line = (scenario: Scenario, starts: string) => monthlyCost(scenario).find((l) => l.item.startsWith(starts))!.usd;

describe('the cost model', () => {
  test('a video at 100,000 a month costs at most $0.002 without inference, polled or told by webhook', () => {
    expect(perVideo(at(100_000))).toBeLessThanOrEqual(PER_VIDEO_TARGET_USD);
    expect(perVideo(at(100_000, { notify: 'webhook' }))).toBeLessThanOrEqual(PER_VIDEO_TARGET_USD);
    // The bench's own figure (making it, a month of its file, one fetch; with IsGenerated's transition, added since) is the larger part of it.
    const made = (line(at(100_000), 'Making it') + line(at(100_000), 'Its file')) / 100_000;
    expect(made).toBeCloseTo(0.00095, 5);
  });

  test('with no videos the bill is the fixed part alone, and the fixed part spreads as videos grow', () => {
    const idle = monthlyCost(at(0));
    expect(total(idle)).toBeCloseTo(line(at(0), 'Fixed: KMS') + line(at(0), 'Fixed: the sweeper'), 10);
    expect(total(idle)).toBeGreaterThan(5);
    expect(perVideo(at(0))).toBeUndefined();
    expect(perVideo(at(1_000))!).toBeGreaterThan(perVideo(at(100_000))! * 4);
  });

  test("the fixed resources are the template's: KMS keys, secrets, alarms, dashboards", () => {
    const { resources } = synthesisedStack();
    const count = (type: string) => resourcesOfType(resources, type).length;
    expect({
      kmsKeys: count('AWS::KMS::Key'),
      secrets: count('AWS::SecretsManager::Secret'),
      alarms: count('AWS::CloudWatch::Alarm'),
      dashboards: count('AWS::CloudWatch::Dashboard'),
    }).toEqual(FIXED_RESOURCES);
  });

  test('polling costs a request, a videos-function call, its reads and the rate counter, and a trace, once a second while the job runs', () => {
    const polls = ASSUMED.jobWallS / ASSUMED.pollEveryS;
    const one = AWS_PRICES.httpApiRequest + AWS_PRICES.lambdaRequest + AWS_PRICES.xrayTrace + 2 * AWS_PRICES.dynamoReadUnit + 2 * AWS_PRICES.dynamoWriteUnit;
    expect(line(at(1_000), 'Polling') / 1_000).toBeGreaterThan(polls * one);
    expect(line(at(1_000, { notify: 'webhook' }), 'No polling') / 1_000).toBeLessThan(line(at(1_000), 'Polling') / 1_000);
  });

  test("cold starts bill the init of every job's calls at 1,000 a month and of 1 in 20 at 100,000", () => {
    const perJob = (n: number) => line(at(n), 'Cold starts') / n;
    expect(perJob(1_000)).toBeCloseTo(perJob(100_000) * 20, 12);
    expect(perJob(1_000)).toBeGreaterThan(ASSUMED.initS.image * (PIPELINE_FUNCTION_SIZES.render.memoryMb / 1024) * AWS_PRICES.lambdaGbSecond);
  });

  test("a hosted engine costs no Lambda time while fal runs (it calls back): its few calls and transitions keep it under the target", () => {
    const callback = line(at(100_000, { engine: 'hosted' }), 'Hosted engine') / 100_000;
    // Far below what a 90 s wait at the render function's memory cost before the callback ($0.0044).
    expect(callback).toBeLessThan(0.1 * 90 * (PIPELINE_FUNCTION_SIZES.render.memoryMb / 1024) * AWS_PRICES.lambdaGbSecond);
    expect(callback).toBeGreaterThan(ASSUMED.hostedCallback.transitions * AWS_PRICES.stateTransition);
    expect(line(at(100_000), 'Hosted engine')).toBe(0);
    expect(perVideo(at(100_000, { engine: 'hosted' }))).toBeLessThanOrEqual(PER_VIDEO_TARGET_USD);
  });

  test('arm64 where no x86 binary runs saves 20% of those functions\' compute, which is well under 1% of the bill: the render function dominates and stays x86', () => {
    for (const videosPerMonth of [1_000, 100_000]) {
      const x86 = total(monthlyCost({ videosPerMonth, notify: 'webhook', engine: 'local' }));
      const arm = total(monthlyCost({ videosPerMonth, notify: 'webhook', engine: 'local', arm64: true }));
      expect(arm).toBeLessThan(x86);
      expect((x86 - arm) / x86).toBeLessThan(0.01);
    }
  });

  test("keeping a video its plan's retention costs its size times the months", () => {
    expect(retentionStorageUsd('free')).toBeCloseTo((MEASURED_VIDEO.fileBytes / 1024 ** 3) * AWS_PRICES.s3GbMonth, 12);
    expect(retentionStorageUsd('business')).toBeCloseTo(retentionStorageUsd('free') * (730 / 30), 12);
  });

  test('docs/aws.md prints the tables exactly as the model computes them', () => {
    const docs = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'aws.md'), 'utf8');
    const printed = /<!-- cost-model:start -->\n([\s\S]*?)\n<!-- cost-model:end -->/.exec(docs)?.[1];
    expect(printed).toBe(costTableMarkdown());
  });
});
