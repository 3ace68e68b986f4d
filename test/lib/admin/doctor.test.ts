import { mockClient } from 'aws-sdk-client-mock';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { diagnose, LAMBDA_CONCURRENCY_QUOTA_CODE, report, reservedExecutions, type DoctorFacts } from '#admin/doctor';
import { deployContext, dockerInfo, gatherFacts } from '#admin/doctor-facts';
import { DEFAULT_BEDROCK_HOOKS_MODEL } from '#cloud/engine-config';

const healthy: DoctorFacts = {
  platform: 'linux',
  arch: 'x64',
  staging: { ffmpeg: 'local', 'espeak-ng': 'local', 'native-modules': 'local', face: 'local' },
  docker: { serverVersion: '27.3.1', containerdStore: false },
  region: 'eu-west-1',
  lambda: { concurrencyLimit: 1000 },
  plan: { apiFunctions: 14, hookEngine: 'local', bedrockModelId: DEFAULT_BEDROCK_HOOKS_MODEL },
  bedrock: null,
};
const levels = (facts: DoctorFacts) => Object.fromEntries(diagnose(facts).map((f) => [f.check, f.level]));
const said = (facts: DoctorFacts, check: string) => diagnose(facts).find((f) => f.check === check)!.says;

describe('what the doctor concludes', () => {
  test('a configured machine and a default-quota account pass every check', () => {
    expect(levels(healthy)).toEqual({ region: 'ok', docker: 'ok', 'lambda concurrency': 'ok', bedrock: 'ok' });
    expect(said(healthy, 'lambda concurrency')).toContain('nothing reserved');
  });

  test('no region and no Docker daemon each fail, saying what to do', () => {
    const facts = { ...healthy, region: null, docker: { serverVersion: null, containerdStore: false } };
    expect(levels(facts)).toMatchObject({ region: 'fail', docker: 'fail' });
    expect(said(facts, 'region')).toContain('AWS_REGION');
    expect(said(facts, 'docker')).toContain('Start Docker');
  });

  test('on a Mac the Docker finding names the trees it stages in a container', () => {
    const mac = { ...healthy, platform: 'darwin', arch: 'arm64', staging: { ...healthy.staging, ffmpeg: 'docker', 'espeak-ng': 'docker', 'native-modules': 'docker' } } as DoctorFacts;
    expect(said(mac, 'docker')).toContain('darwin/arm64 machine stages ffmpeg, espeak-ng, native-modules in a linux/amd64 container');
  });

  test("Docker's containerd image store is a warning about the index Lambda refuses", () => {
    expect(levels({ ...healthy, docker: { serverVersion: '28.0.0', containerdStore: true } })['docker image store']).toBe('warn');
  });

  test('reservations past the quota fail and say how much to ask for, with the quota code', () => {
    const plan = { ...healthy.plan, apiReserved: 10, renderReserved: 50 };
    expect(reservedExecutions(plan)).toBe(190);
    const facts = { ...healthy, plan, lambda: { concurrencyLimit: 200 } };
    expect(levels(facts)['lambda concurrency']).toBe('fail');
    expect(said(facts, 'lambda concurrency')).toContain(`ask AWS for at least 290 (Service Quotas → AWS Lambda → Concurrent executions, ${LAMBDA_CONCURRENCY_QUOTA_CODE})`);
    expect(levels({ ...facts, lambda: { concurrencyLimit: 290 } })['lambda concurrency']).toBe('warn');
    expect(levels({ ...facts, lambda: { concurrencyLimit: 1000 } })['lambda concurrency']).toBe('ok');
  });

  test("a new account's quota of 10 is a warning: bursts wait, nothing can be reserved", () => {
    const facts = { ...healthy, lambda: { concurrencyLimit: 10 } };
    expect(levels(facts)['lambda concurrency']).toBe('warn');
    expect(said(facts, 'lambda concurrency')).toContain('ask AWS for at least 1000');
  });

  test('unreadable account settings fail with the reason', () => {
    expect(said({ ...healthy, lambda: { error: 'CredentialsProviderError: Could not load credentials' } }, 'lambda concurrency')).toContain('Could not load credentials');
  });

  test('hooks on Bedrock: a refused model fails with where to enable it, an absent one with what to change', () => {
    const plan = { ...healthy.plan, hookEngine: 'bedrock' };
    expect(levels({ ...healthy, plan, bedrock: 'ok' }).bedrock).toBe('ok');
    expect(said({ ...healthy, plan, bedrock: { denied: 'AccessDeniedException' } }, 'bedrock')).toContain('Model access in eu-west-1');
    expect(said({ ...healthy, plan, bedrock: { unavailable: 'ValidationException' } }, 'bedrock')).toContain('-c bedrockHooksModelId=');
  });

  test('the report has one line per finding, failures marked', () => {
    const text = report(diagnose({ ...healthy, region: null }));
    expect(text.split('\n')).toHaveLength(4);
    expect(text).toMatch(/^FAIL {2}region: /m);
  });
});

describe('the facts it reads', () => {
  test('the context is cdk.json with -c arguments over it, and a malformed argument is refused', () => {
    expect(deployContext(['-c', 'apiConcurrency=5', '--context', 'hookEngine=bedrock'])).toMatchObject({ apiConcurrency: '5', hookEngine: 'bedrock', '@aws-cdk/core:checkSecretUsage': true });
    expect(() => deployContext(['-c', 'novalue'])).toThrow('expected -c key=value');
    expect(() => deployContext(['stray'])).toThrow('expected -c key=value');
  });

  test("Docker's info: a daemon, a containerd store, or none", () => {
    const answer = (status: number, stdout: string) => () => ({ status, stdout, error: undefined }) as never;
    expect(dockerInfo(answer(0, JSON.stringify({ ServerVersion: '27.3.1', DriverStatus: [['Backing Filesystem', 'extfs']] })))).toEqual({ serverVersion: '27.3.1', containerdStore: false });
    expect(dockerInfo(answer(0, JSON.stringify({ ServerVersion: '28.0.0', DriverStatus: [['driver-type', 'io.containerd.snapshotter.v1']] })))).toEqual({ serverVersion: '28.0.0', containerdStore: true });
    expect(dockerInfo(answer(1, ''))).toEqual({ serverVersion: null, containerdStore: false });
  });

  test("Lambda's quota, the context's reservations and a one-token Bedrock request, from the SDK clients", async () => {
    const lambda = new LambdaClient({ region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
    const bedrock = new BedrockRuntimeClient({ region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
    const lambdaMock = mockClient(lambda).on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions: 400 } });
    const denied = Object.assign(new Error('You do not have access to the model'), { name: 'AccessDeniedException' });
    const bedrockMock = mockClient(bedrock).on(ConverseCommand).rejects(denied);
    const docker = () => ({ serverVersion: '27.3.1', containerdStore: false });

    const facts = await gatherFacts(['-c', 'apiConcurrency=10', '-c', 'renderConcurrency=20', '-c', 'hookEngine=bedrock'], { lambda, bedrock }, docker);
    expect(facts).toMatchObject({ region: 'us-east-1', lambda: { concurrencyLimit: 400 }, plan: { apiReserved: 10, renderReserved: 20, hookEngine: 'bedrock' } });
    expect(facts.bedrock).toEqual({ denied: expect.stringContaining('AccessDeniedException') });
    expect(bedrockMock.commandCalls(ConverseCommand)[0]!.args[0].input).toMatchObject({ modelId: DEFAULT_BEDROCK_HOOKS_MODEL, inferenceConfig: { maxTokens: 1 } });
    expect(levels(facts)).toMatchObject({ 'lambda concurrency': 'warn', bedrock: 'fail' });
    lambdaMock.restore();
    bedrockMock.restore();
  });

  test('an unknown engine in the context is refused before any call', async () => {
    await expect(gatherFacts(['-c', 'hookEngine=sideways'])).rejects.toThrow('context hookEngine=sideways is not one of');
  });
});
