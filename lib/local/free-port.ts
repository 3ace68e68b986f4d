import getPort from 'get-port';

const PORT_TAKEN = /EADDRINUSE|Address already in use|BindException/;

/**
 * Starts a server process on a port found free, again on another one if something took that port
 * before the process bound it. Neither DynamoDB Local nor s3rver reports a port it picked itself, so
 * the choice is ours and the race between choosing and binding is closed by trying again.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await getPort({ host: '127.0.0.1' }));
    } catch (error) {
      if (attempt >= attempts || !PORT_TAKEN.test(String(error))) throw error;
    }
  }
}
