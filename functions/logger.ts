import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';

/** One structured logger per process; the request id is appended per request. */
export const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'reaction-studio',
  logLevel: (process.env.LOG_LEVEL as 'INFO' | 'WARN' | 'ERROR' | 'DEBUG' | 'SILENT' | undefined) ?? 'INFO',
});

/**
 * A Lambda entry that is not a middy chain (pipeline steps, workers, the sweeper): each of its log lines
 * carries the invocation's function, request id and cold start. Called in process (local stack, tests)
 * without a context, it only runs the handler.
 */
export const withLambdaContext =
  <E, R>(handler: (event: E, context?: Context) => Promise<R>) =>
  (event: E, context?: Context): Promise<R> => {
    if (context) logger.addContext(context);
    return handler(event, context);
  };
