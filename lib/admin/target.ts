/**
 * Where admin commands write: the running local stack (found through the data dir), a deployed stack
 * (its table named by the stack's outputs, with the caller's AWS credentials), or, when neither is up,
 * a DynamoDB Local started on the data dir just for the command.
 */
import { join } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { resetClients } from '../../functions/adapters/aws-clients';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { ensureTable } from '../local/provision';
import { freePort } from '../local/ports';
import { LOCAL_TABLE, dataDirOf, readRuntimeState } from '../local/runtime-state';

export interface AdminTarget {
  description: string;
  close(): Promise<void>;
}

export async function connectAdminTarget(options: { stack?: string; dataDir?: string }): Promise<AdminTarget> {
  if (options.stack) return connectDeployed(options.stack);
  const dataDir = dataDirOf(options.dataDir);
  const running = readRuntimeState(dataDir);
  if (running) {
    useTable(running.tableName, running.dynamoEndpoint);
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
  const table = out.Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === 'TableName')?.OutputValue;
  if (!table) throw new Error(`stack ${stackName} has no TableName output`);
  useTable(table, undefined);
  return { description: `stack ${stackName}`, close: async () => undefined };
}

function useTable(tableName: string, endpoint: string | undefined): void {
  process.env.TABLE_NAME = tableName;
  if (endpoint) process.env.DYNAMODB_ENDPOINT = endpoint;
  else delete process.env.DYNAMODB_ENDPOINT;
  resetClients();
}
