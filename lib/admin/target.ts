/**
 * Where admin commands write: the running local stack (found through the data dir), a deployed stack
 * (its table named by the stack's outputs, with the caller's AWS credentials), or, when neither is up,
 * a DynamoDB Local started on the data dir just for the command.
 */
import { join } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { resetClients } from '#adapters/aws-clients';
import { localConnectionKeyFile } from '#adapters/crypto/credential-cipher';
import { startDynamoDbLocal } from '#local/dynamodb-local';
import { ensureTable } from '#local/provision';
import { freePort } from '#local/ports';
import { LOCAL_TABLE, clearRuntimeState, dataDirOf, readRuntimeState, reapOrphanedChildren, type RuntimeState } from '#local/runtime-state';
import { useRunningSandboxes } from '#local/sandboxes/index';
import { acquireInstanceLock, type InstanceLock } from '#local/instance-lock';
import { checkSecretFiles, prepareDataDir } from '#local/data-dir';

export interface AdminTarget {
  description: string;
  close(): Promise<void>;
}

export async function connectAdminTarget(options: { stack?: string; dataDir?: string }): Promise<AdminTarget> {
  if (options.stack) return connectDeployed(options.stack);
  const dataDir = dataDirOf(options.dataDir);
  // The key file the local server seals provider credentials with: the CLI must seal alike.
  useConnectionKey({ file: localConnectionKeyFile(dataDir) });
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
    const db = await startDynamoDbLocal({ dbPath: join(dataDir, 'dynamodb'), port: await freePort() });
    await ensureTable(db.endpoint, LOCAL_TABLE);
    useTable(LOCAL_TABLE, db.endpoint);
    return {
      description: `local data in ${dataDir}`,
      close: async () => {
        await db.child.stop();
        await lock.release();
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

function useRunningStack(dataDir: string, running: RuntimeState): AdminTarget {
  useTable(running.tableName, running.dynamoEndpoint);
  // `connections set` checks keys with the same providers the server talks to (its sandboxes).
  useRunningSandboxes(dataDir);
  return { description: `local stack ${running.apiUrl}`, close: async () => undefined };
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
  useTable(table, undefined);
  // Stacks deployed before social publishing have no key; only the connections commands need it.
  const connectionKey = outputs.find((o) => o.OutputKey === 'ConnectionKeyArn')?.OutputValue;
  useConnectionKey({ kmsKeyId: connectionKey });
  return { description: `stack ${stackName}`, close: async () => undefined };
}

function useTable(tableName: string, endpoint: string | undefined): void {
  process.env.TABLE_NAME = tableName;
  if (endpoint) process.env.DYNAMODB_ENDPOINT = endpoint;
  else delete process.env.DYNAMODB_ENDPOINT;
  resetClients();
}

function useConnectionKey(key: { file?: string; kmsKeyId?: string }): void {
  if (key.file) process.env.CONNECTION_KEY_FILE = key.file;
  else delete process.env.CONNECTION_KEY_FILE;
  if (key.kmsKeyId) process.env.CONNECTION_KEY_ID = key.kmsKeyId;
  else delete process.env.CONNECTION_KEY_ID;
}
