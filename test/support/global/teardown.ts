/** Jest global teardown: stops what the global setup started. */
import { stopSharedServices } from './services';

export default async function globalTeardown(): Promise<void> {
  await stopSharedServices();
}
