/**
 * Where admin commands write: the running local stack (found through the data dir), a deployed stack
 * (its table named by the stack's outputs, with the caller's AWS credentials), or, when neither is up,
 * a DynamoDB Local started on the data dir just for the command.
 */
import { join } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { createDynamoTable } from '#adapters/aws-clients';
import type { DynamoTable } from '#adapters/dynamodb/table';
import { DynamoAccountStore } from '#adapters/dynamodb/accounts';
import { DynamoApiKeyStore } from '#adapters/dynamodb/api-keys';
import { DynamoCollections } from '#adapters/dynamodb/collection-counter';
import type { AccountStore } from '#ports/account-store';
import type { ApiKeyStore } from '#ports/api-key-store';
import type { CollectionCounters } from '#ports/collection-counters';
import { kmsCredentialCipher, localCredentialCipher } from '#adapters/crypto/credential-cipher';
import { DynamoConnectionStore } from '#adapters/dynamodb/connections';
import { createSocialProviders, type SocialBaseUrls } from '#adapters/social/registry';
import type { ConnectionStore } from '#ports/connection-store';
import type { CredentialCipher } from '#ports/credential-cipher';
import type { SocialProviders } from '#ports/social-provider';
import { startDynamoDbLocal } from '#local/dynamodb-local';
import { ensureTable } from '#local/provision';
import { LOCAL_TABLE, clearRuntimeState, dataDirOf, readRuntimeState, reapOrphanedChildren, type RuntimeState } from '#local/runtime-state';
import { runningSandboxBaseUrls } from '#local/sandboxes/index';
import { acquireInstanceLock, type InstanceLock } from '#local/instance-lock';
import { checkSecretFiles, prepareDataDir } from '#local/data-dir';
import { adminConfig } from './config';

/** What admin commands work through: the target's table behind the same adapters the API uses. */
export interface AdminStores {
  table: DynamoTable;
  accounts: AccountStore;
  apiKeys: ApiKeyStore;
  collections: CollectionCounters;
  connections: ConnectionStore;
  /** Seals provider keys as the target's API does: the data dir's key file locally, the stack's KMS key on AWS. */
  cipher: CredentialCipher;
  social: SocialProviders;
}

export interface AdminTarget extends AdminStores {
  description: string;
  close(): Promise<void>;
}

function adminStores(tableName: string, endpoint: string | undefined, cipher: CredentialCipher, socialBaseUrls: SocialBaseUrls = adminConfig().socialBaseUrls): AdminStores {
  const table = createDynamoTable({ region: adminConfig().region, tableName, dynamoEndpoint: endpoint });
  return {
    table,
    accounts: new DynamoAccountStore(table),
    apiKeys: new DynamoApiKeyStore(table),
    collections: new DynamoCollections(table),
    connections: new DynamoConnectionStore(table),
    cipher,
    social: createSocialProviders({ baseUrls: socialBaseUrls }),
  };
}

/** The target, closed with its client. */
function target(description: string, stores: AdminStores, close: () => Promise<void> = async () => undefined): AdminTarget {
  return {
    ...stores,
    description,
    close: async () => {
      stores.table.client.destroy();
      await close();
    },
  };
}

export async function connectAdminTarget(options: { stack?: string; dataDir?: string }): Promise<AdminTarget> {
  if (options.stack) return connectDeployed(options.stack);
  const dataDir = dataDirOf(options.dataDir);
  const running = await readRuntimeState(dataDir);
  if (running) return useRunningStack(dataDir, running);

  prepareDataDir(dataDir, (line) => console.error(line));
  checkSecretFiles(dataDir);
  const claimed = await claimDataDir(dataDir);
  if ('apiUrl' in claimed) return useRunningStack(dataDir, claimed);
  const lock = claimed;
  try {
    // The lock is ours: a runtime.json, or service processes, left here belong to a stack that died.
    clearRuntimeState(dataDir);
    reapOrphanedChildren(dataDir);
    const db = await startDynamoDbLocal({ dbPath: join(dataDir, 'dynamodb') });
    await ensureTable(db.endpoint, LOCAL_TABLE);
    return target(`local data in ${dataDir}`, adminStores(LOCAL_TABLE, db.endpoint, localCredentialCipher(dataDir)), async () => {
      await db.child.stop();
      await lock.release();
    });
  } catch (error) {
    await lock.release();
    throw error;
  }
}

function useRunningStack(dataDir: string, running: RuntimeState): AdminTarget {
  // The key file the local server seals provider credentials with: the CLI must seal alike.
  // `connections set` checks keys with the same providers the server talks to (its sandboxes).
  const stores = adminStores(running.tableName, running.dynamoEndpoint, localCredentialCipher(dataDir), runningSandboxBaseUrls(dataDir));
  return target(`local stack ${running.apiUrl}`, stores);
}

/**
 * The data dir's instance lock, so that no stack starts a second DynamoDB Local on the same files
 * while this command works on them; or the stack that started meanwhile. Another admin command
 * working offline is waited for (they are short) rather than failed.
 */
async function claimDataDir(dataDir: string, waitMs = 60_000): Promise<InstanceLock | RuntimeState> {
  const until = Date.now() + waitMs;
  for (;;) {
    const lock = await acquireInstanceLock(dataDir);
    if (lock) return lock;
    const running = await readRuntimeState(dataDir);
    if (running) return running;
    if (Date.now() > until) throw new Error(`the data dir ${dataDir} stayed in use by another process (a stack still starting, or another admin command)`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function connectDeployed(stackName: string): Promise<AdminTarget> {
  const client = new CloudFormationClient({});
  const out = await client.send(new DescribeStacksCommand({ StackName: stackName }));
  const outputs = out.Stacks?.[0]?.Outputs ?? [];
  const table = outputs.find((o) => o.OutputKey === 'TableName')?.OutputValue;
  if (!table) throw new Error(`stack ${stackName} has no TableName output`);
  // Stacks deployed before social publishing have no key; only the connections commands need it.
  const connectionKey = outputs.find((o) => o.OutputKey === 'ConnectionKeyArn')?.OutputValue;
  const stores = adminStores(table, undefined, kmsCredentialCipher({ keyId: connectionKey, region: adminConfig().region }));
  return target(`stack ${stackName}`, stores);
}
