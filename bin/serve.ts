/** `npm start`: the whole API on this machine, on real components, no AWS account needed. */
import { startLocalStack } from '#local/runtime';
import { serveConfig } from '#local/config';
import { ffmpegPath, ffprobePath } from '#render';
import { ensureStudioBuilt } from '#local/studio-build';

async function main(): Promise<void> {
  const config = serveConfig();
  ffmpegPath();
  ffprobePath();
  await ensureStudioBuilt((line) => console.log(line));
  const stack = await startLocalStack({
    port: config.port,
    dataDir: config.dataDir,
    rateLimitPerMinute: config.rateLimitPerMinute,
    previewWaitS: config.previewWaitS,
    billing: config.billing,
    renderConcurrency: config.renderConcurrency,
    lambdaThrottle: config.lambdaThrottle,
    tableName: config.tableName,
    log: (line) => console.log(line),
  });
  console.log(`Reaction Studio API on ${stack.apiUrl}  (data in ${stack.dataDir})`);
  console.log(`The studio (sign in in a browser) on ${stack.baseUrl}/`);
  if (stack.demo) {
    console.log('');
    console.log(`Created account "demo" (plan pro, id ${stack.demo.accountId}). Its API key, shown only this once:`);
    console.log(`  ${stack.demo.key}`);
    console.log(`Its studio login, also shown only this once: ${stack.demo.login.email} / ${stack.demo.login.password}`);
    console.log('');
    console.log(`Try: curl -H "Authorization: Bearer ${stack.demo.key}" ${stack.apiUrl}/usage`);
  }
  console.log('Ctrl-C stops everything.');
  const shutdown = (signal: string) => {
    console.log(`\n${signal}: stopping...`);
    stack.stop().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error) => {
  console.error(`Could not start the local stack: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
