import { PipelineError, fromEngineError, jobErrorOf, toPipelineError } from '#pipeline/errors';
import { EngineError } from '#ports/engine';

describe('pipeline errors', () => {
  it('names a failure so the ASL retries it or sends it straight to MarkFailed', () => {
    expect(new PipelineError('render_failed', 'x', { retryable: true }).name).toBe('Job.Retryable');
    expect(new PipelineError('render_failed', 'x').name).toBe('Job.Failed');
  });

  it('carries the job error as the Cause, whether the local runner or Lambda wrapped it', () => {
    const error = new PipelineError('input_deleted', 'Product 3 was deleted while the job was running');
    const local = { Error: error.name, Cause: error.message };
    const lambda = { Error: error.name, Cause: JSON.stringify({ errorType: error.name, errorMessage: error.message, trace: [] }) };
    for (const failure of [local, lambda]) {
      expect(jobErrorOf(failure)).toEqual({ code: 'input_deleted', message: 'Product 3 was deleted while the job was running' });
    }
  });

  it('turns a Task timeout into an actionable timeout error', () => {
    expect(jobErrorOf({ Error: 'States.Timeout', Cause: '' })).toEqual({ code: 'timeout', message: expect.stringContaining('try again') });
  });

  it('never shows an unknown error or a crash cause to the user', () => {
    const crash = { Error: 'TypeError', Cause: JSON.stringify({ errorType: 'TypeError', errorMessage: "Cannot read properties of undefined (reading 'key')" }) };
    expect(jobErrorOf(crash).code).toBe('internal_error');
    expect(jobErrorOf(crash).message).not.toContain('undefined');
    expect(jobErrorOf({ Error: 'Job.Failed', Cause: '{"code":"made_up","message":"m"}' }).code).toBe('internal_error');
    expect(jobErrorOf(undefined).code).toBe('internal_error');
  });

  it('maps engine failures to job codes, keeping their advice and their retryability', () => {
    const unavailable = fromEngineError(new EngineError('provider_unavailable', 'busy'));
    expect([unavailable.code, unavailable.name]).toEqual(['generation_failed', 'Job.Retryable']);
    const noFace = fromEngineError(new EngineError('invalid_input', 'No face found in the avatar'));
    expect([noFace.code, noFace.name, noFace.detail]).toEqual(['invalid_input', 'Job.Failed', 'No face found in the avatar']);
    expect(fromEngineError(new EngineError('content_rejected', 'nsfw')).code).toBe('content_rejected');
    expect(fromEngineError(new EngineError('provider_timeout', 'slow')).code).toBe('generation_timeout');
  });

  it('wraps anything else under the step fallback code without leaking its message', () => {
    const wrapped = toPipelineError(new Error('ENOSPC: no space left on device'), 'render_failed');
    expect(wrapped.code).toBe('render_failed');
    expect(wrapped.detail).not.toContain('ENOSPC');
  });
});
