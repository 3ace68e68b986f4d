/**
 * Contract: the AWS SDK's own Bedrock Runtime client against our Bedrock double, only the endpoint
 * swapped (HTTP/2 cleartext on loopback, the wire the SDK speaks to the service). The Converse call
 * the hooks adapter makes, and the service errors it maps, must come through the SDK as from AWS.
 */
import { BedrockRuntimeClient, ConverseCommand, InvokeModelCommand, type ConverseCommandInput } from '@aws-sdk/client-bedrock-runtime';
import { startBedrockDouble, type BedrockDouble } from '#test-doubles/bedrock-runtime';

const MODEL = 'us.amazon.nova-lite-v1:0';

let double: BedrockDouble;
let client: BedrockRuntimeClient;

beforeAll(async () => {
  double = await startBedrockDouble();
  client = new BedrockRuntimeClient({ region: 'us-east-1', endpoint: double.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
});
afterAll(async () => {
  client.destroy();
  await double.close();
});
beforeEach(() => double.reset());

const converse = (input: Partial<ConverseCommandInput> = {}) =>
  client.send(
    new ConverseCommand({
      modelId: MODEL,
      system: [{ text: 'Write 3 hooks as JSON.' }],
      messages: [{ role: 'user', content: [{ text: 'Product: a travel mug' }] }],
      inferenceConfig: { maxTokens: 400, temperature: 0.9 },
      ...input,
    }),
  );

async function serviceError(call: Promise<unknown>): Promise<{ name: string; status: number | undefined }> {
  const error = (await call.then(
    () => null,
    (e: unknown) => e,
  )) as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  if (!error?.name) throw new Error('expected a service error');
  return { name: error.name, status: error.$metadata?.httpStatusCode };
}

test('Converse: the assistant text, stopReason and usage, at the model id asked for, signed by the SDK', async () => {
  const answer = await converse();
  expect(answer.output?.message?.role).toBe('assistant');
  expect(JSON.parse(answer.output?.message?.content?.[0]?.text ?? '').hooks).toEqual(expect.arrayContaining([expect.objectContaining({ text: expect.any(String) })]));
  expect(answer.stopReason).toBe('end_turn');
  expect(answer.usage).toEqual(expect.objectContaining({ inputTokens: expect.any(Number), outputTokens: expect.any(Number) }));
  expect(double.requests).toHaveLength(1);
  expect(double.requests[0]!.modelId).toBe(MODEL);
  expect(double.requests[0]!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=local\//);
  expect(double.requests[0]!.body.inferenceConfig).toEqual({ maxTokens: 400, temperature: 0.9 });
});

test.each([
  ['ThrottlingException', 429],
  ['AccessDeniedException', 403],
  ['ModelTimeoutException', 408],
  ['ServiceUnavailableException', 503],
])('a %s (%i) reaches the caller as that exception', async (type, status) => {
  double.enqueue({ kind: 'error', type, status, message: 'from the double' });
  expect(await serviceError(converse())).toEqual({ name: type, status });
});

test('a request the service refuses (no messages, or the assistant first) is a ValidationException', async () => {
  expect(await serviceError(converse({ messages: [] }))).toEqual({ name: 'ValidationException', status: 400 });
  expect(await serviceError(converse({ messages: [{ role: 'assistant', content: [{ text: 'hi' }] }] }))).toEqual({ name: 'ValidationException', status: 400 });
});

test('an operation the double does not serve is refused, never answered as if it were Converse', async () => {
  const error = await serviceError(client.send(new InvokeModelCommand({ modelId: MODEL, body: new TextEncoder().encode('{}'), contentType: 'application/json' })));
  expect(error.status).toBe(404);
});
