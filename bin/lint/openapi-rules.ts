/**
 * Our own Redocly rules, loaded by redocly.yaml beside the recommended ones (`npm run lint:openapi`):
 *
 * - `reaction-studio/property-description`: every property of every schema says what it is. A property
 *   counts as described when it has a description, or is a component that has one (`$ref`), or a
 *   list of such, or (nullable or a union) only of such: the meaning then lives with the component.
 */
import type { Oas3Rule } from '@redocly/openapi-core/lib/visitors';

type Json = Record<string, unknown>;
type Resolve = (ref: { $ref: string }) => { node: unknown };

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

function described(schema: unknown, resolve: Resolve): boolean {
  if (!isObject(schema)) return false;
  if (typeof schema.description === 'string' && schema.description.trim() !== '') return true;
  if (typeof schema.$ref === 'string') {
    const target = resolve({ $ref: schema.$ref }).node;
    return isObject(target) && typeof target.description === 'string' && target.description.trim() !== '';
  }
  if (isObject(schema.items)) return described(schema.items, resolve);
  const members = [...((schema.anyOf as unknown[]) ?? []), ...((schema.oneOf as unknown[]) ?? [])].filter((member) => !isObject(member) || member.type !== 'null');
  return members.length > 0 && members.every((member) => described(member, resolve));
}

const PropertyDescription: Oas3Rule = () => ({
  SchemaProperties: {
    enter(properties: Json, { location, report, resolve }) {
      for (const [name, schema] of Object.entries(properties)) {
        if (!described(schema, resolve as Resolve)) report({ message: `Property \`${name}\` has no description.`, location: location.child([name]) });
      }
    },
  },
});

export default function reactionStudioRules() {
  return { id: 'reaction-studio', rules: { oas3: { 'property-description': PropertyDescription } } };
}
