/** The in-memory job duration store the unit tests use keeps the DynamoDB store's rules. */
import { MemoryJobDurations } from '#test-doubles/memory/job-durations';
import { jobDurationsContract } from '#test-support/job-durations-contract';

const store = new MemoryJobDurations();
jobDurationsContract(() => store);
