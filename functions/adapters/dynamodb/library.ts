import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { LibraryUsage } from '#ports/library-usage';
import { keys } from './keys';
import type { DynamoTable } from './table';

/**
 * Saved reactions in the account's library, read from the counter that saves are admitted by
 * (adapters/dynamodb/reactions.ts), so GET /usage and the cap never disagree.
 */
export class DynamoLibraryUsage implements LibraryUsage {
  constructor(private readonly table: DynamoTable) {}

  async count(accountId: number): Promise<number> {
    const out = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.libraryCounter(accountId), ConsistentRead: true }));
    return Math.max(0, Number(out.Item?.count ?? 0));
  }
}
