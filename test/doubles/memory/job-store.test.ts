/** The in-memory job store the use-case tests use keeps the DynamoDB store's conditions. */
import { MemoryJobStore } from '#test-doubles/memory/job-store';
import { jobStoreContract } from '#test-support/job-store-contract';

const jobs = new MemoryJobStore();
jobStoreContract(() => ({ jobs, ledger: jobs.ledger, videos: jobs.videos }));
