/**
 * Where admin commands write: the running local stack (found through the data dir), a deployed stack
 * (its table named by the stack's outputs, with the caller's AWS credentials), or, when neither is up,
 * a DynamoDB Local started on the data dir just for the command.
 */
import { join } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { resetClients } from '../../functions/adapters/aws-clients';
import { localConnectionKeyFile } from '../../functions/adapters/crypto/credential-cipher';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { ensureTable } from '../local/provision';
import { freePort } from '../local/ports';
import { LOCAL_TABLE, dataDirOf, readRuntimeState } from '../local/runtime-state';
import { useRunningSandboxes } from '../local/sandboxes';

export interface AdminTarget {
  description: string;
  close(): Promise<void>;
}

export async function connectAdminTarget(options: { stack?: string; dataDir?: string }): Promise<AdminTarget> {
  if (options.stack) return connectDeployed(options.stack);
  const dataDir = dataDirOf(options.dataDir);
  // The key file the local server seals provider credentials with: the CLI must seal alike.
  useConnectionKey({ file: localConnectionKeyFile(dataDir) });
  const running = readRuntimeState(dataDir);
  if (running) {
    useTable(running.tableName, running.dynamoEndpoint);
    // `connections set` checks keys with the same providers the server talks to (its sandboxes).
    useRunningSandboxes(dataDir);
    return { description: `local stack ${running.apiUrl}`, close: async () => undefined };
  }
  const db = await startDynamoDbLocal({ dbPath: join(dataDir, 'dynamodb'), port: await freePort() });
  await ensureTable(db.endpoint, LOCAL_TABLE);
  useTable(LOCAL_TABLE, db.endpoint);
  return { description: `local data in ${dataDir}`, close: () => db.child.stop() };
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
