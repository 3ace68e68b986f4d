/** Our Redocly rule (bin/lint/openapi-rules.ts): a property that says nothing of what it is fails the lint of the API description. */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import reactionStudioRules from '../../bin/lint/openapi-rules';

/** The rule's complaints about a document whose one component is `schema` (and `Described`, a component that says what it is). */
async function complaints(schema: Record<string, unknown>): Promise<string[]> {
  const config = await createConfig({ plugins: [reactionStudioRules()], rules: { 'reaction-studio/property-description': 'error' } } as never);
  const source = JSON.stringify({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {},
    components: { schemas: { Thing: schema, Described: { type: 'object', description: 'A thing that says what it is' }, Silent: { type: 'object' } } },
  });
  const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
  return problems.filter((p) => p.ruleId === 'reaction-studio/property-description').map((p) => p.message);
}

const object = (properties: Record<string, unknown>) => ({ type: 'object', properties });

describe('reaction-studio/property-description', () => {
  test('a property without a description is reported by name', async () => {
    expect(await complaints(object({ id: { type: 'integer' }, name: { type: 'string', description: 'What it is called' } }))).toEqual(['Property `id` has no description.']);
  });

  test('nested objects are held to it too', async () => {
    expect(await complaints(object({ price: { type: 'object', description: 'What it costs', properties: { amount: { type: 'integer' } } } }))).toEqual([
      'Property `amount` has no description.',
    ]);
  });

  test('a component that says what it is describes the property naming it, alone, in a list or nullable', async () => {
    const ref = { $ref: '#/components/schemas/Described' };
    expect(await complaints(object({ one: ref, many: { type: 'array', items: ref }, maybe: { anyOf: [ref, { type: 'null' }] } }))).toEqual([]);
  });

  test('a component that does not, or a union with an undescribed member, does not', async () => {
    const silent = { $ref: '#/components/schemas/Silent' };
    expect(await complaints(object({ one: silent, either: { anyOf: [{ $ref: '#/components/schemas/Described' }, { type: 'string' }] } }))).toEqual([
      'Property `one` has no description.',
      'Property `either` has no description.',
    ]);
  });
});
