/**
 * The one DynamoDB table of the single-table design. Its key schema (lib/table-schema.ts) is shared with
 * the local twin's DynamoDB Local table; item key shapes live in functions/adapters/dynamodb/keys.ts.
 * Beside it, the KMS key that wraps the data keys of the social-provider credentials stored in it.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { TABLE_SCHEMA } from '#lib/table-schema';

export class DataStore extends Construct {
  readonly table: dynamodb.Table;
  /** Envelope encryption of provider credentials (functions/adapters/crypto/credential-cipher.ts). */
  readonly connectionKey: kms.Key;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: TABLE_SCHEMA.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE_SCHEMA.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TABLE_SCHEMA.ttlAttribute,
      // Wakes the webhook dispatcher when an event is written (lib/cloud/webhooks.ts); keys are all it reads.
      stream: dynamodb.StreamViewType.KEYS_ONLY,
      // Accounts, keys, usage and charges are the business's records: a stack deletion must not take them.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    for (const index of TABLE_SCHEMA.globalIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }

    this.connectionKey = new kms.Key(this, 'ConnectionKey', {
      description: 'Wraps the data keys that seal social-provider credentials (envelope encryption)',
      enableKeyRotation: true,
      // Records sealed under it outlive the stack with the table: losing the key would lose every connection.
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
