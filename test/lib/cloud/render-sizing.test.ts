/**
 * The render function's memory and its concurrency cap, and the API's reserved concurrency, are
 * deployment choices (CDK context), bounded by what Lambda accepts.
 */
import { App, Stack } from 'aws-cdk-lib';
import { resourcesOfType, synthesisedStack, synthesisedVariant, type Resource } from '#test-support/cdk-template';
import { DEFAULT_RENDER_MEMORY_MB, LAMBDA_MEMORY_MB, RENDER_MEMORY_CONTEXT, renderMemoryFromContext } from '#cloud/render-memory';
import { PIPELINE_FUNCTION_SIZES } from '#cloud/function-sizes';
import { CONCURRENCY_CONTEXT, concurrencyFromContext } from '#cloud/concurrency';

const read = (value?: unknown) => renderMemoryFromContext(new Stack(new App({ context: value === undefined ? {} : { [RENDER_MEMORY_CONTEXT]: value } }), 'S'));

describe('renderMemoryMb (CDK context)', () => {
  test('defaults to 3008 MB, the most a new account may give a function, which is the sizes table value', () => {
    expect(read()).toBe(3008);
    expect(DEFAULT_RENDER_MEMORY_MB).toBe(PIPELINE_FUNCTION_SIZES.render.memoryMb);
  });

  test.each([
    ['10240', 10_240],
    ['1769', 1769],
    [' 4096 ', 4096],
    [128, 128],
    [10_240, 10_240],
  ])('takes %p from -c or cdk.json', (value, expected) => {
    expect(read(value)).toBe(expected);
  });

  test.each(['127', '10241', '0', '-3008', '3008.5', '3 GB', '', 'lots', 3008.5, true])('refuses %p, naming the bounds', (value) => {
    expect(() => read(value)).toThrow(new RegExp(`${RENDER_MEMORY_CONTEXT}=.* must be a whole number of MB from ${LAMBDA_MEMORY_MB.min} to ${LAMBDA_MEMORY_MB.max}`));
  });
});

describe('renderConcurrency and apiConcurrency (CDK context)', () => {
  const concurrency = (context: Record<string, unknown>) => concurrencyFromContext(new Stack(new App({ context }), 'S'));

  test('are off unless set: a new account (quota 10) cannot reserve any', () => {
    expect(concurrency({})).toEqual({ render: undefined, api: undefined });
  });

  test('take whole numbers from -c or cdk.json', () => {
    expect(concurrency({ [CONCURRENCY_CONTEXT.render]: '20', [CONCURRENCY_CONTEXT.api]: 10 })).toEqual({ render: 20, api: 10 });
  });

  test.each(['0', '1001', '2.5', 'many', '', -1, true])('refuse %p, naming the variable and the bounds', (value) => {
    expect(() => concurrency({ [CONCURRENCY_CONTEXT.render]: value })).toThrow(/renderConcurrency=.* must be a whole number of executions from 1 to 1000/);
    expect(() => concurrency({ [CONCURRENCY_CONTEXT.api]: value })).toThrow(/apiConcurrency=.* must be a whole number of executions from 1 to 1000/);
  });
});

describe('the app deployed with renderMemoryMb, renderConcurrency and apiConcurrency', () => {
  const props = (resources: Record<string, Resource>, id: string) => resources[id]!.Properties as { MemorySize?: number; ReservedConcurrentExecutions?: number };

  test('gives the render function that memory and that cap, each API function its reservation, and leaves the other functions theirs', () => {
    const { resources, ids } = synthesisedVariant('sized');
    expect(props(resources, ids.jobs.functions.render)).toMatchObject({ MemorySize: 10_240, ReservedConcurrentExecutions: 20 });
    expect(props(resources, ids.jobs.functions.steps).MemorySize).toBeLessThanOrEqual(DEFAULT_RENDER_MEMORY_MB);
    expect(props(resources, ids.jobs.functions.steps).ReservedConcurrentExecutions).toBeUndefined();
    for (const id of Object.values(ids.api.functions)) expect(props(resources, id).ReservedConcurrentExecutions).toBe(10);
  });

  test('without them no function reserves any concurrency: a new account can deploy', () => {
    const { resources } = synthesisedStack();
    const reserving = resourcesOfType(resources, 'AWS::Lambda::Function').filter(([, r]) => (r.Properties as { ReservedConcurrentExecutions?: number }).ReservedConcurrentExecutions !== undefined);
    expect(reserving).toEqual([]);
  });
});
