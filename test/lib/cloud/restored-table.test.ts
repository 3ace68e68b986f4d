/**
 * After a restore the stack runs on the new table (docs/aws.md, Restoring the table): `-c
 * restoredTableName` and `-c restoredTableStreamArn` point every function, grant, stream consumer,
 * alarm, backup and output at it, and the stack makes no table of its own.
 */
import { App, Stack } from 'aws-cdk-lib';
import { RESTORED_TABLE_CONTEXT, restoredTableFromContext } from '#cloud/restored-table';
import { actionsOf, resourcesOfType, synthesisedStack, synthesisedVariant, type Statement } from '#test-support/cdk-template';
import { RESTORED_TABLE_NAME, VARIANTS } from '#test-support/synthesis-cache';

const STREAM = VARIANTS.restoredTable.restoredTableStreamArn;
const read = (context: Record<string, unknown>) => restoredTableFromContext(new Stack(new App({ context }), 'S'));

describe('restoredTableName and restoredTableStreamArn (CDK context)', () => {
  test('unset: the stack keeps its own table', () => {
    expect(read({})).toBeUndefined();
  });

  test('both set: the table by name, with its stream', () => {
    expect(read(VARIANTS.restoredTable)).toEqual({ tableName: RESTORED_TABLE_NAME, tableStreamArn: STREAM });
  });

  test.each([
    [{ [RESTORED_TABLE_CONTEXT.name]: RESTORED_TABLE_NAME }, /restoredTableStreamArn=undefined must be the ARN of .*'s stream/],
    [{ [RESTORED_TABLE_CONTEXT.streamArn]: STREAM }, /restoredTableName=undefined must be a DynamoDB table name/],
    [{ [RESTORED_TABLE_CONTEXT.name]: 'a b', [RESTORED_TABLE_CONTEXT.streamArn]: STREAM }, /restoredTableName=a b must be/],
    [{ [RESTORED_TABLE_CONTEXT.name]: 'other-table', [RESTORED_TABLE_CONTEXT.streamArn]: STREAM }, /must be the ARN of other-table's stream/],
  ])('refuses half a setting or a stream of another table: %p', (context, message) => {
    expect(() => read(context)).toThrow(message);
  });
});

describe('the app pointed at a restored table', () => {
  const { resources } = synthesisedVariant('restoredTable');
  const ofType = (type: string) => resourcesOfType(resources, type);
  const text = (value: unknown) => JSON.stringify(value);

  test('makes no table of its own (the one it made stays, retained, outside the template)', () => {
    expect(ofType('AWS::DynamoDB::Table')).toEqual([]);
    expect(ofType('AWS::DynamoDB::GlobalTable')).toEqual([]);
    // The default synthesis has its own table, retained.
    const own = resourcesOfType(synthesisedStack().resources, 'AWS::DynamoDB::Table');
    expect(own.map(([, t]) => t.DeletionPolicy)).toEqual(['Retain']);
  });

  test('every function that uses the table is handed the restored one by name', () => {
    const withTable = ofType('AWS::Lambda::Function').filter(([, fn]) => fn.Properties.Environment?.Variables?.TABLE_NAME !== undefined);
    expect(withTable.length).toBeGreaterThan(10);
    for (const [id, fn] of withTable) expect({ id, table: fn.Properties.Environment.Variables.TABLE_NAME }).toEqual({ id, table: RESTORED_TABLE_NAME });
  });

  test("every DynamoDB grant names the restored table (and its indexes), none another", () => {
    const statements = ofType('AWS::IAM::Policy').flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
    const table = statements.filter((s) => actionsOf(s).some((a) => /^dynamodb:(GetItem|PutItem|Query)$/.test(a)));
    expect(table.length).toBeGreaterThan(10);
    for (const s of table) expect(text(s.Resource)).toContain(`:table/${RESTORED_TABLE_NAME}`);
  });

  test("the job starter, the webhook dispatcher and the live-updates pusher read the restored table's stream", () => {
    const sources = ofType('AWS::Lambda::EventSourceMapping').filter(([, m]) => text(m.Properties.EventSourceArn).includes(':dynamodb:') || text(m.Properties.EventSourceArn).includes('stream'));
    expect(sources).toHaveLength(3);
    for (const [, mapping] of sources) expect(mapping.Properties.EventSourceArn).toBe(STREAM);
  });

  test('the daily backup plan copies the restored table', () => {
    const selections = ofType('AWS::Backup::BackupSelection');
    expect(selections).toHaveLength(1);
    expect(text(selections[0]![1].Properties.BackupSelection.Resources)).toContain(`:table/${RESTORED_TABLE_NAME}`);
  });
});
