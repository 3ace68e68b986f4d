import { DynamoJobDurations } from '#adapters/dynamodb/job-durations';
import { storeOnTestTable } from '#test-support/dynamodb';
import { jobDurationsContract } from '#test-support/job-durations-contract';

const store = storeOnTestTable((table) => new DynamoJobDurations(table));

jobDurationsContract(store);
