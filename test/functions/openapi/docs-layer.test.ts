/** On AWS the reference page's script and stylesheet (one layer) and the API description (another) reach the meta function, and only it. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resourcesOfType, synthesisedStack } from '#test-support/cdk-template';
import { DOCS_FILES, OPENAPI_DOCUMENT_ENV, OPENAPI_FILE, installedDocsDir } from '#functions/openapi/docs-assets';
import { HANDLER_GROUPS, type HandlerGroup } from '#functions/routes';

const synthesis = synthesisedStack();

const functionId = (group: HandlerGroup) => synthesis.ids.api.functions[group];
const layerId = (description: RegExp) => {
  const found = resourcesOfType(synthesis.resources, 'AWS::Lambda::LayerVersion').filter(([, r]) => description.test(String(r.Properties?.Description)));
  expect(found).toHaveLength(1);
  return found[0]![0];
};
const docsLayerId = () => layerId(/reference page's script and stylesheet/);
const documentLayerId = () => layerId(/API description/);
const stagedDirsHolding = (file: string) =>
  fs
    .readdirSync(synthesis.outdir)
    .map((d) => path.join(synthesis.outdir, d))
    .filter((dir) => fs.existsSync(path.join(dir, file)));

const pageFiles = Object.values(DOCS_FILES);

test('the meta function gets both layers and the paths of the files in them', () => {
  const props = synthesis.resources[functionId('meta')]!.Properties!;
  expect(props.Layers).toEqual(expect.arrayContaining([{ Ref: docsLayerId() }, { Ref: documentLayerId() }]));
  const variables = (props.Environment as { Variables: Record<string, unknown> }).Variables;
  for (const file of pageFiles) expect(variables[file.env]).toBe(`/opt/${file.fileName}`);
  expect(variables[OPENAPI_DOCUMENT_ENV]).toBe(`/opt/${path.basename(OPENAPI_FILE)}`);
});

test('no other function carries them', () => {
  const layers = [docsLayerId(), documentLayerId()];
  for (const group of (Object.keys(HANDLER_GROUPS) as HandlerGroup[]).filter((g) => g !== 'meta')) {
    for (const id of layers) expect(synthesis.resources[functionId(group)]!.Properties!.Layers ?? []).not.toContainEqual({ Ref: id });
  }
});

test('the staged document layer holds exactly the committed document', () => {
  const staged = stagedDirsHolding(path.basename(OPENAPI_FILE));
  expect(staged).toHaveLength(1);
  expect(fs.readdirSync(staged[0]!)).toEqual([path.basename(OPENAPI_FILE)]);
  expect(fs.readFileSync(path.join(staged[0]!, path.basename(OPENAPI_FILE)), 'utf8')).toBe(fs.readFileSync(OPENAPI_FILE, 'utf8'));
});

test("the staged page layer holds exactly the installed bundle's script and stylesheet", () => {
  const staged = stagedDirsHolding(DOCS_FILES.script.fileName);
  expect(staged).toHaveLength(1);
  expect(fs.readdirSync(staged[0]!).sort()).toEqual(pageFiles.map((f) => f.fileName).sort());
  for (const { fileName } of pageFiles) {
    expect(fs.statSync(path.join(staged[0]!, fileName)).size).toBe(fs.statSync(path.join(installedDocsDir(), fileName)).size);
  }
});
