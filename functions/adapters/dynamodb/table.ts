/** The service's one DynamoDB table as the adapters reach it: a document client and the table's name. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface DynamoTable {
  client: DynamoDBDocumentClient;
  name: string;
}
