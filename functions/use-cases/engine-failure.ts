/** How an engine failure inside a request reaches the client: actionable 4xx, or a 5xx that may be retried. */
import { AppError } from '#domain/errors';
import { isEngineError } from '#ports/engine';

export function engineFailureToAppError(error: unknown, field: string): unknown {
  if (!isEngineError(error)) return error;
  switch (error.code) {
    case 'invalid_input':
      return new AppError('invalid_media', error.message, { cause: error });
    case 'content_rejected':
      return new AppError('bad_request', `${field} was refused by the generation provider: ${error.message}`, { cause: error });
    case 'provider_unavailable':
    case 'provider_timeout':
      return new AppError('upstream_unavailable', 'The generation provider is busy; retry in a minute', {
        cause: error,
        headers: { 'retry-after': '60' },
      });
    case 'provider_error':
      // The provider answered but nothing usable came of it (a model's answer cut off at max_tokens
      // twice, a model failure): not our fault and likely to pass, so the client may retry.
      if (error.retryable) {
        return new AppError('upstream_unavailable', `The generation provider gave no usable answer; retry in a moment (${error.message})`, {
          cause: error,
          headers: { 'retry-after': '5' },
        });
      }
      return new AppError('internal_error', error.message, { cause: error });
    default:
      return new AppError('internal_error', error.message, { cause: error });
  }
}
