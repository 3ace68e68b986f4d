/** The Lambda bundle is defined once; the stack and the benchmark must build the same thing. */
import { OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LAMBDA_BUNDLE, lambdaBundlingProps, lambdaEsbuildOptions } from '../../../lib/cloud/bundling';

describe('Lambda bundling options', () => {
  const esbuild = lambdaEsbuildOptions('functions/handlers/meta.ts', 'out/index.js');
  const cdk = lambdaBundlingProps();

  test('bundle for Lambda\'s nodejs22.x as minified CommonJS without source maps', () => {
    expect(esbuild).toMatchObject({ bundle: true, platform: 'node', target: 'node22', format: 'cjs', minify: true, sourcemap: false });
    expect(cdk).toMatchObject({ target: 'node22', format: OutputFormat.CJS, minify: true, sourceMap: false });
  });

  test('keep nothing external, so the AWS SDK clients ship at the pinned versions', () => {
    expect(esbuild.external).toEqual([]);
    // An empty list, not undefined: NodejsFunction would otherwise leave @aws-sdk/* to the runtime.
    expect(cdk.externalModules).toEqual([]);
  });

  test('never fall back to Docker', () => {
    expect(cdk.forceDockerBundling).toBe(false);
  });

  test('NodejsFunction and a plain esbuild build derive from the same definition', () => {
    expect(cdk.target).toBe(esbuild.target);
    expect(cdk.format).toBe(esbuild.format);
    expect(cdk.minify).toBe(esbuild.minify);
    expect(cdk.sourceMap).toBe(esbuild.sourcemap);
    expect(cdk.externalModules).toEqual(esbuild.external);
    expect(cdk.mainFields).toEqual(esbuild.mainFields);
    expect(esbuild.mainFields).toEqual([...LAMBDA_BUNDLE.mainFields]);
  });

  test('the caller chooses entry and output file', () => {
    expect(esbuild.entryPoints).toEqual(['functions/handlers/meta.ts']);
    expect(esbuild.outfile).toBe('out/index.js');
  });
});
