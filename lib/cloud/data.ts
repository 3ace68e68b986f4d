/**
 * The one DynamoDB table of the single-table design. Its key schema (lib/table-schema.ts) is shared with
 * the local twin's DynamoDB Local table; item key shapes live in functions/adapters/dynamodb/keys.ts.
 * Beside it, the KMS key that wraps the data keys of the social-provider credentials stored in it.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import * as backup from 'aws-cdk-lib/aws-backup';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { TABLE_SCHEMA } from '#lib/table-schema';
import { acknowledge } from './nag';
import { restoredTableFromContext } from './restored-table';

export class DataStore extends Construct {
  /** The stack's own table, or the restored one it was pointed at (restored-table.ts). */
  readonly table: dynamodb.ITable;
  /** Envelope encryption of provider credentials (functions/adapters/crypto/credential-cipher.ts). */
  readonly connectionKey: kms.Key;
  /** Daily copies of the table, kept 35 days in AWS Backup's vault. */
  readonly backupPlan: backup.BackupPlan;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    const restored = restoredTableFromContext(this);
    // A restored table's settings (stream, TTL, PITR, deletion protection) are set by the restore
    // runbook, not here: CloudFormation did not create it and does not own it.
    this.table = restored
      ? dynamodb.Table.fromTableAttributes(this, 'RestoredTable', { ...restored, grantIndexPermissions: true })
      : this.ownTable();

    // Point-in-time recovery covers 35 days of mistakes inside the table; the backup plan keeps copies
    // apart from it (a deleted table takes its PITR window with it), restored as docs/aws.md says.
    this.backupPlan = backup.BackupPlan.daily35DayRetention(this, 'BackupPlan');
    const selection = this.backupPlan.addSelection('Table', { resources: [backup.BackupResource.fromDynamoDbTable(this.table)] });
    acknowledge(selection, {
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup]':
        "AWS Backup's own service-role policy for backup jobs: the documented permission set, kept current by AWS as services add backup APIs",
    });

    this.connectionKey = new kms.Key(this, 'ConnectionKey', {
      description: 'Wraps the data keys that seal social-provider credentials (envelope encryption)',
      enableKeyRotation: true,
      // Records sealed under it outlive the stack with the table: losing the key would lose every connection.
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  private ownTable(): dynamodb.Table {
    const table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: TABLE_SCHEMA.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE_SCHEMA.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TABLE_SCHEMA.ttlAttribute,
      // Wakes the webhook dispatcher when an event is written (lib/cloud/webhooks.ts); keys are all it reads.
      stream: dynamodb.StreamViewType.KEYS_ONLY,
      // Accounts, keys, usage and charges are the business's records: a stack deletion must not take
      // them, and neither may a console click or a stray DeleteTable.
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
    });

    // One index per deploy: CloudFormation adds at most one to a table in an update, so gsi2 came on its own.
    for (const index of TABLE_SCHEMA.globalIndexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
        ...(index.projection.type === 'INCLUDE'
          ? { projectionType: dynamodb.ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection.attributes] }
          : { projectionType: dynamodb.ProjectionType.ALL }),
      });
    }
    return table;
  }
}
