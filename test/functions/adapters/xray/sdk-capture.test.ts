/** SDK clients are handed to an instrument as they are made; the X-Ray one only acts on Lambda with tracing on. */
import { S3Client } from '@aws-sdk/client-s3';
import { createDynamoTable, createS3Client, type ClientInstrument } from '#adapters/aws-clients';
import { xrayCapture } from '#adapters/xray/sdk-capture';

const SETTINGS = { region: 'eu-west-1', tableName: 't' };

/** An instrument that marks each client's middleware stack, as X-Ray capture does. */
function marking(): { instrument: ClientInstrument; seen: string[] } {
  const seen: string[] = [];
  const instrument: ClientInstrument = (client) => {
    seen.push(client.constructor.name);
    (client as unknown as S3Client).middlewareStack.add((next) => next, { step: 'build', name: 'marked' });
    return client;
  };
  return { instrument, seen };
}

describe('client instruments', () => {
  test('the S3 client and the DynamoDB client are handed over as they are made, and the document client keeps the mark', () => {
    const { instrument, seen } = marking();
    const s3 = createS3Client(SETTINGS, instrument);
    const table = createDynamoTable(SETTINGS, instrument);
    expect(seen).toEqual(['S3Client', 'DynamoDBClient']);
    expect(s3.middlewareStack.identify().some((m) => m.startsWith('marked'))).toBe(true);
    expect(table.client.middlewareStack.identify().some((m) => m.startsWith('marked'))).toBe(true);
  });

  test('without an instrument the clients are as made', () => {
    expect(createS3Client(SETTINGS).middlewareStack.identify().some((m) => m.startsWith('marked'))).toBe(false);
  });

  test('X-Ray capture leaves a client as it is outside Lambda (tracing is off)', () => {
    const client = new S3Client({ region: 'eu-west-1' });
    const before = client.middlewareStack.identify();
    expect(xrayCapture(client)).toBe(client);
    expect(client.middlewareStack.identify()).toEqual(before);
  });
});

describe('X-Ray capture on Lambda', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  test('adds the X-Ray middleware to the client it is given', () => {
    // What Lambda sets; outgoing HTTPS capture is left off so no other test's requests are patched.
    Object.assign(process.env, { AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x', POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS: 'false' });
    jest.isolateModules(() => {
      const { xrayCapture: capture } = jest.requireActual<typeof import('#adapters/xray/sdk-capture')>('#adapters/xray/sdk-capture');
      const client = new S3Client({ region: 'eu-west-1' });
      const before = client.middlewareStack.identify();
      expect(capture(client)).toBe(client);
      expect(client.middlewareStack.identify().filter((m) => !before.includes(m)).join(' ')).toMatch(/xray/i);
    });
  });
});
