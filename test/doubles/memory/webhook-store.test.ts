/** The in-memory webhook store the use-case tests use keeps the DynamoDB store's conditions. */
import { MemoryWebhookStore } from '#test-doubles/memory/webhook-store';
import { webhookStoreContract } from '#test-support/webhook-store-contract';

const store = new MemoryWebhookStore();
webhookStoreContract(() => store, 100);
