import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unlessRefused } from '#adapters/dynamodb/conditions';

const refused = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

describe('a conditional write outside a transaction', () => {
  it("answers the write's own answer when its condition held", async () => {
    expect(await unlessRefused(Promise.resolve({ Attributes: { id: 1 } }))).toEqual({ Attributes: { id: 1 } });
  });

  it('answers undefined when its condition refused it', async () => {
    expect(await unlessRefused(Promise.reject(refused()))).toBeUndefined();
  });

  it('throws any other failure', async () => {
    await expect(unlessRefused(Promise.reject(new Error('throttled')))).rejects.toThrow('throttled');
  });
});
