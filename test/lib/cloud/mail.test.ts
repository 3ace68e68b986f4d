/** Mail on AWS: a deployment that names a sender lets the accounts function, and only it, send from it with SES. */
import { App, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { grantMail, mailFromContext } from '#cloud/mail';
import { VARIANTS } from '#test-support/synthesis-cache';
import { actionsOf, referencedIds, roleStatements, synthesisedStack, synthesisedVariant, type Json, type Synthesised } from '#test-support/cdk-template';
import { nagFindings } from '#test-support/nag-findings';

const SENDER = 'no-reply@studio.example.com';

function readers({ resources, ids }: Pick<Synthesised, 'resources' | 'ids'>) {
  const functionIds = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function').map(([id]) => id);
  const env = (id: string) => (resources[id]!.Properties.Environment?.Variables ?? {}) as Record<string, Json>;
  const sesStatements = (id: string) => roleStatements(resources, id).filter((s) => actionsOf(s).some((a) => a.startsWith('ses:')));
  return { resources, ids, functionIds, env, sesStatements };
}

describe('mail in the deployment', () => {
  test('without a sender no function may use SES or is told of one', () => {
    const { functionIds, env, sesStatements } = readers(synthesisedStack());
    for (const id of functionIds) {
      expect(sesStatements(id)).toEqual([]);
      expect(Object.keys(env(id))).not.toEqual(expect.arrayContaining(['MAIL_FROM']));
    }
  });

  test("with -c mailFrom the accounts function gets the sender, the studio's address and ses:SendEmail from that sender only", () => {
    expect(VARIANTS.mail).toEqual({ mailFrom: SENDER });
    const { ids, functionIds, env, sesStatements } = readers(synthesisedVariant('mail'));
    const accounts = ids.api.functions.accounts;
    expect(env(accounts).MAIL_FROM).toBe(SENDER);
    // The links point at the studio's distribution (its https address), not at a request's Host.
    expect(JSON.stringify(env(accounts).STUDIO_URL)).toMatch(/https:\/\//);
    expect(referencedIds(env(accounts).STUDIO_URL)).toEqual([ids.studio.distribution]);
    expect(sesStatements(accounts)).toEqual([
      {
        Effect: 'Allow',
        Action: 'ses:SendEmail',
        Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':identity/*']] },
        Condition: { StringEquals: { 'ses:FromAddress': SENDER } },
      },
    ]);
    for (const id of functionIds.filter((f) => f !== accounts)) {
      expect(sesStatements(id)).toEqual([]);
      expect(env(id).MAIL_FROM).toBeUndefined();
    }
  });

  test('the studio address in the function makes no dependency cycle (the distribution needs the HTTP API, not its functions)', () => {
    const { resources } = readers(synthesisedVariant('mail'));
    const edges = new Map(
      Object.entries(resources).map(([id, r]) => {
        const dependsOn = (r as { DependsOn?: string | string[] }).DependsOn ?? [];
        return [id, new Set([...referencedIds(r.Properties ?? {}), ...(Array.isArray(dependsOn) ? dependsOn : [dependsOn])].filter((to) => to in resources))];
      }),
    );
    const state = new Map<string, 'visiting' | 'done'>();
    const cycleFrom = (id: string): string[] | undefined => {
      if (state.get(id) === 'done') return undefined;
      if (state.get(id) === 'visiting') return [id];
      state.set(id, 'visiting');
      for (const to of edges.get(id) ?? []) {
        const cycle = cycleFrom(to);
        if (cycle) return [id, ...cycle];
      }
      state.set(id, 'done');
      return undefined;
    };
    for (const id of edges.keys()) expect(cycleFrom(id)).toBeUndefined();
  });

  test("the wildcard over SES identities is acknowledged to cdk-nag with its reason, and nothing else is found", () => {
    const stack = new Stack();
    const fn = new lambda.Function(stack, 'Mailer', { runtime: lambda.Runtime.NODEJS_22_X, handler: 'index.handler', code: lambda.Code.fromInline('exports.handler = async () => {}') });
    grantMail(fn, { from: SENDER, studioUrl: 'https://studio.example.com' });
    expect(nagFindings(stack).filter((f) => f.includes('IAM5'))).toEqual([]);
  });

  test('context mailFrom must be an address', () => {
    const withContext = (mailFrom: unknown) => mailFromContext(new Stack(new App({ context: { mailFrom } }), 'S'));
    expect(withContext(SENDER)).toBe(SENDER);
    expect(withContext('')).toBeUndefined();
    expect(() => withContext('not an address')).toThrow('context mailFrom must be an email address');
    expect(() => withContext(42)).toThrow('context mailFrom must be an email address');
  });
});
