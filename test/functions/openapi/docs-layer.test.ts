/** On AWS the reference page's script reaches the meta function (and only it) as a layer of that one file. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { logicalIdOf, resourcesOfType, useSynthesisedStack } from '#test-support/cdk-template';
import { DOCS_SCRIPT_ENV, DOCS_SCRIPT_FILE_NAME, installedDocsScript } from '#functions/openapi/docs-script';
import { HANDLER_GROUPS, type HandlerGroup } from '#functions/routes';

const synthesis = useSynthesisedStack('DocsLayerTest');

const functionId = (group: HandlerGroup) => logicalIdOf(synthesis.current.stack, synthesis.current.stack.api.functions[group]);
const docsLayerId = () => {
  const found = resourcesOfType(synthesis.current.resources, 'AWS::Lambda::LayerVersion').filter(([, r]) => /reference page script/.test(String(r.Properties?.Description)));
  expect(found).toHaveLength(1);
  return found[0]![0];
};

test('the meta function gets the layer and the path of the script in it', () => {
  const props = synthesis.current.resources[functionId('meta')]!.Properties!;
  expect(props.Layers).toContainEqual({ Ref: docsLayerId() });
  expect((props.Environment as { Variables: Record<string, unknown> }).Variables[DOCS_SCRIPT_ENV]).toBe(`/opt/${DOCS_SCRIPT_FILE_NAME}`);
});

test('no other function carries it', () => {
  const layerId = docsLayerId();
  for (const group of (Object.keys(HANDLER_GROUPS) as HandlerGroup[]).filter((g) => g !== 'meta')) {
    expect(synthesis.current.resources[functionId(group)]!.Properties!.Layers ?? []).not.toContainEqual({ Ref: layerId });
  }
});

test('the staged layer holds exactly the installed bundle', () => {
  const staged = fs
    .readdirSync(synthesis.current.outdir)
    .map((d) => path.join(synthesis.current.outdir, d))
    .filter((dir) => fs.existsSync(path.join(dir, DOCS_SCRIPT_FILE_NAME)));
  expect(staged).toHaveLength(1);
  expect(fs.readdirSync(staged[0]!)).toEqual([DOCS_SCRIPT_FILE_NAME]);
  expect(fs.statSync(path.join(staged[0]!, DOCS_SCRIPT_FILE_NAME)).size).toBe(fs.statSync(installedDocsScript()).size);
});
