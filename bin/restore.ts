/**
 * The table restore runbook's tool (docs/aws.md, Restoring the table). Every command prints one JSON
 * object on stdout, and with it what to run next.
 *   export --table NAME --to DIR       a consistent scan into DIR, in DynamoDB's export layout
 *   load --from DIR --table NEW        DIR (that export, or DynamoDB's export to S3 copied down) into a NEW table, prepared
 *   prepare --table NEW                stream, TTL, PITR, deletion protection on a table AWS restored (PITR or AWS Backup)
 * Targets AWS with the caller's credentials (AWS_REGION), `--endpoint URL` a DynamoDB of its own, or
 * `--local` the running local stack of DATA_DIR (or `--data-dir`).
 */
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { adminConfig } from '#admin/config';
import { exportTable, prepareRestoredTable, restoreFromExport } from '#admin/table-restore';
import { dataDirOf, readRuntimeState } from '#local/runtime-state';
import { RESTORED_TABLE_CONTEXT } from '#cloud/restored-table';

class UsageError extends Error {}

const USAGE = `usage: npm run restore -- <command> [--endpoint URL | --local [--data-dir DIR]]
  export --table NAME --to DIR
  load --from DIR --table NEW
  prepare --table NEW`;

interface Target {
  client: DynamoDBClient;
  local: boolean;
  /** The running local stack's table, the default of export's --table. */
  localTable?: string;
}

async function targetOf(values: { endpoint?: string; local?: boolean; 'data-dir'?: string }): Promise<Target> {
  const region = adminConfig().region;
  const localClient = (endpoint: string) => new DynamoDBClient({ region, endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  if (values.local) {
    const state = await readRuntimeState(dataDirOf(values['data-dir']));
    if (!state) throw new UsageError(`no local stack is running on ${dataDirOf(values['data-dir'])}: start it (npm start), or name --endpoint`);
    return { client: localClient(state.dynamoEndpoint), local: true, localTable: state.tableName };
  }
  if (values.endpoint) return { client: localClient(values.endpoint), local: true };
  return { client: new DynamoDBClient({ region }), local: false };
}

/** How the stack is pointed at the restored table, where it runs. */
function pointAt(target: Target, tableName: string, streamArn: string): string {
  return target.local
    ? `stop the local stack, then start it on the restored table: TABLE_NAME=${tableName} npm start`
    : `npx cdk deploy -c ${RESTORED_TABLE_CONTEXT.name}=${tableName} -c ${RESTORED_TABLE_CONTEXT.streamArn}=${streamArn}`;
}

async function run(argv: string[]): Promise<Record<string, unknown>> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      table: { type: 'string' },
      to: { type: 'string' },
      from: { type: 'string' },
      endpoint: { type: 'string' },
      local: { type: 'boolean' },
      'data-dir': { type: 'string' },
    },
  });
  const [command] = positionals;
  const target = await targetOf(values);
  try {
    if (command === 'export') {
      const table = values.table ?? target.localTable;
      if (!table || !values.to) throw new UsageError('export needs --table NAME and --to DIR');
      const manifest = await exportTable(target.client, table, values.to);
      return { exported: manifest, next: `npm run restore -- load --from ${values.to} --table ${table}-restored-<date>` };
    }
    if (command === 'load') {
      if (!values.from || !values.table) throw new UsageError('load needs --from DIR and --table NEW');
      const restored = await restoreFromExport(target.client, { from: values.from, tableName: values.table });
      return { restored, next: pointAt(target, restored.tableName, restored.streamArn) };
    }
    if (command === 'prepare') {
      if (!values.table) throw new UsageError('prepare needs --table NEW');
      const { streamArn } = await prepareRestoredTable(target.client, values.table);
      return { prepared: { tableName: values.table, streamArn }, next: pointAt(target, values.table, streamArn) };
    }
    throw new UsageError(command ? `unknown command ${command}` : 'no command');
  } finally {
    target.client.destroy();
  }
}

run(process.argv.slice(2)).then(
  (result) => console.log(JSON.stringify(result, null, 2)),
  (error: unknown) => {
    console.error(error instanceof UsageError ? `${error.message}\n${USAGE}` : error instanceof Error ? error.message : error);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
