import { Compensation } from '#use-cases/compensation';

const recordingLog = () => {
  const errors: { message: string; fields?: Record<string, unknown> }[] = [];
  return { errors, log: { info: () => undefined, warn: () => undefined, error: (message: string, fields?: Record<string, unknown>) => void errors.push({ message, fields }) } };
};

describe('Compensation', () => {
  test('runs the undo steps newest first, each once', async () => {
    const ran: string[] = [];
    const undo = new Compensation();
    undo.add('upload', async () => void ran.push('upload'));
    undo.add('record', async () => void ran.push('record'));
    expect(await undo.undo()).toBe('undone');
    expect(await undo.undo()).toBe('undone');
    expect(ran).toEqual(['record', 'upload']);
  });

  test('a step that answers false keeps itself and every older step', async () => {
    const ran: string[] = [];
    const undo = new Compensation();
    undo.add('upload', async () => void ran.push('upload'));
    undo.add('record', async () => false);
    expect(await undo.undo()).toBe('kept');
    expect(ran).toEqual([]);
  });

  test('a step that throws is logged and keeps the older steps; a best-effort one does not stop the others', async () => {
    const { errors, log } = recordingLog();
    const ran: string[] = [];
    const undo = new Compensation({ log });
    undo.add('upload', async () => void ran.push('upload'));
    undo.add('poster', () => Promise.reject(new Error('s3 down')), { bestEffort: true });
    undo.add('record', () => Promise.reject(new Error('dynamo down')));
    expect(await undo.undo()).toBe('kept');
    expect(ran).toEqual([]);
    expect(errors).toEqual([{ message: 'an undo step failed', fields: { step: 'record', best_effort: false, error: new Error('dynamo down') } }]);

    const second = new Compensation({ log });
    second.add('upload', async () => void ran.push('upload'));
    second.add('poster', () => Promise.reject(new Error('s3 down')), { bestEffort: true });
    expect(await second.undo()).toBe('undone');
    expect(ran).toEqual(['upload']);
  });

  test('guard undoes on failure and rethrows the original error, whatever the undo met', async () => {
    const original = new Error('write refused');
    const undo = new Compensation();
    undo.add('upload', () => Promise.reject(new Error('undo failed too')));
    await expect(undo.guard(() => Promise.reject(original))).rejects.toBe(original);
    await expect(undo.guard(async () => 'fine')).resolves.toBe('fine');
  });
});
