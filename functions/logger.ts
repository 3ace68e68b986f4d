import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { optionalEnv } from './config';

const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

/** LOG_LEVEL as Powertools takes it; a value it does not know is a configuration error, named. */
function logLevelOf(raw: string | undefined): LogLevel {
  if (raw === undefined) return 'INFO';
  const level = raw.toUpperCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new Error(`environment variable LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not ${raw}`);
  return level as LogLevel;
}

/** One structured logger per process; the request id is appended per request. */
export const logger = new Logger({
  serviceName: optionalEnv('POWERTOOLS_SERVICE_NAME') ?? 'reaction-studio',
  logLevel: logLevelOf(optionalEnv('LOG_LEVEL')),
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
