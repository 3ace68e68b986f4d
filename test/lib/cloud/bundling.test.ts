/** The Lambda bundle is defined once; the stack and the benchmark must build the same thing. */
import { isBuiltin } from 'node:module';
import { OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LAMBDA_BUNDLE, NATIVE_MODULES, lambdaBundlingProps, lambdaEsbuildOptions } from '#cloud/bundling';
import { HANDLER_GROUPS } from '#functions/routes';
import { WORKERS } from '#cloud/workers';
import { FACE_CHECK_FUNCTION } from '#cloud/face-check';
import { MCP_FUNCTION } from '#cloud/mcp-endpoint';
import { JOB_STARTER_FUNCTION, PIPELINE_FUNCTIONS, SWEEPER_FUNCTION } from '#pipeline/steps';

describe('Lambda bundling options', () => {
  const esbuild = lambdaEsbuildOptions('functions/handlers/meta.ts', 'out/index.js');
  const cdk = lambdaBundlingProps();

  test('bundle for Lambda\'s nodejs22.x as minified CommonJS without source maps', () => {
    expect(esbuild).toMatchObject({ bundle: true, platform: 'node', target: 'node22', format: 'cjs', minify: true, sourcemap: false });
    expect(cdk).toMatchObject({ target: 'node22', format: OutputFormat.CJS, minify: true, sourceMap: false });
  });

  test('leave out only the native modules, which the layer ships: the AWS SDK is bundled, not taken from the runtime', () => {
    expect(esbuild.external).toEqual([...NATIVE_MODULES]);
    expect(cdk.externalModules).toEqual([...NATIVE_MODULES]);
  });

  test.each([
    ...Object.values(HANDLER_GROUPS).map((needs) => [needs.entry, needs as { native?: boolean }] as const),
    ...Object.values(WORKERS).map((needs) => [needs.entry, needs as { native?: boolean }] as const),
    ...Object.values(PIPELINE_FUNCTIONS).map((needs) => [needs.entry, needs as { native?: boolean }] as const),
    [SWEEPER_FUNCTION.entry, SWEEPER_FUNCTION as { native?: boolean }] as const,
    [JOB_STARTER_FUNCTION.entry, JOB_STARTER_FUNCTION as { native?: boolean }] as const,
    [FACE_CHECK_FUNCTION.entry, FACE_CHECK_FUNCTION as { native?: boolean }] as const,
    [MCP_FUNCTION.entry, MCP_FUNCTION as { native?: boolean }] as const,
  ])('%s needs nothing at run time but Node built-ins and (with the layer) its native modules: it carries its AWS SDK', async (entry, needs) => {
    const { build } = await import('esbuild');
    const out = await build({ ...lambdaEsbuildOptions(entry, 'out/index.js', { native: needs.native }), write: false, metafile: true });
    const externals = Object.values(out.metafile!.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path));
    const provided = (path: string) =>
      isBuiltin(path) || (needs.native === true && (NATIVE_MODULES as readonly string[]).includes(path));
    expect(externals.filter((path) => !provided(path))).toEqual([]);
  });

  test('the public handler (GET /, 404/405) loads no AWS SDK at all, so it starts fastest', async () => {
    const { build } = await import('esbuild');
    const out = await build({ ...lambdaEsbuildOptions('functions/handlers/meta.ts', 'out/meta.js'), write: false, metafile: true });
    const inputs = Object.values(out.metafile!.outputs).flatMap((output) => Object.keys(output.inputs));
    expect(inputs.filter((input) => input.includes('node_modules/@aws-sdk/'))).toEqual([]);
  });

  test('the avatars function draws portraits within the request but bundles none of the reaction renderer, captions or encoder', async () => {
    const { build } = await import('esbuild');
    const out = await build({ ...lambdaEsbuildOptions(HANDLER_GROUPS.avatars.entry, 'out/avatars.js', { native: true }), write: false, metafile: true });
    // What the output holds: esbuild reads every module the render wing's index names (the metafile's
    // inputs list them all) and keeps only those the function uses (package.json's sideEffects).
    const inputs = Object.values(out.metafile!.outputs).flatMap((output) => Object.keys(output.inputs));
    expect(inputs).toContain('functions/adapters/engines/local/prompt-avatar.ts');
    expect(inputs).toContain('functions/render/illustrated/illustrated-avatar.ts');
    for (const module of ['local/engine.ts', 'expression-curve.ts', 'reaction-clip.ts', 'frame-encoder.ts', 'caption/caption.ts', 'compose/compose.ts', 'face/index.ts']) {
      expect(inputs.filter((input) => input.endsWith(module))).toEqual([]);
    }
  });

  test("a reference's face check is split: the videos function bundles the frame sampler (ffmpeg) without the detector, the face-check function the detector without the sampler", async () => {
    const { build } = await import('esbuild');
    const inputsOf = async (entry: string, native: boolean) => {
      const out = await build({ ...lambdaEsbuildOptions(entry, 'out/index.js', { native }), write: false, metafile: true });
      return Object.values(out.metafile!.outputs).flatMap((output) => Object.keys(output.inputs));
    };
    const videos = await inputsOf(HANDLER_GROUPS.videos.entry, false);
    expect(videos).toContain('functions/adapters/lambda/face-check-client.ts');
    expect(videos).toContain('functions/render/face/reference-face.ts');
    for (const module of ['face/frame-faces.ts', 'face/landmarks.ts', 'face/human-loader.ts', 'face/image-face.ts']) expect(videos.filter((input) => input.endsWith(module))).toEqual([]);
    const faceCheck = await inputsOf(FACE_CHECK_FUNCTION.entry, true);
    expect(faceCheck).toEqual(expect.arrayContaining(['functions/render/face/frame-faces.ts', 'functions/render/face/landmarks.ts']));
    for (const module of ['ffmpeg/binaries.ts', 'face/reference-motion.ts', 'adapters/lambda/face-check-client.ts']) expect(faceCheck.filter((input) => input.endsWith(module))).toEqual([]);
  });

  test("a hosted clip's face box is split the same way: the videos function's client bundles its frame sampler without the detector, the face-check function the box without the sampler", async () => {
    const { build } = await import('esbuild');
    const inputsOf = async (entry: string, native: boolean) => {
      const out = await build({ ...lambdaEsbuildOptions(entry, 'out/index.js', { native }), write: false, metafile: true });
      return Object.values(out.metafile!.outputs).flatMap((output) => Object.keys(output.inputs));
    };
    const videos = await inputsOf(HANDLER_GROUPS.videos.entry, false);
    expect(videos).toContain('functions/render/face/face-box-frames.ts');
    for (const module of ['face/face-box.ts', 'face/landmarks.ts']) expect(videos.filter((input) => input.endsWith(module))).toEqual([]);
    const faceCheck = await inputsOf(FACE_CHECK_FUNCTION.entry, true);
    expect(faceCheck).toEqual(expect.arrayContaining(['functions/render/face/face-box.ts', 'functions/render/face/face-box-sampling.ts']));
    for (const module of ['face/face-box-frames.ts', 'ffmpeg/binaries.ts']) expect(faceCheck.filter((input) => input.endsWith(module))).toEqual([]);
  });

  test('a linked reference is fetched where it is checked: the videos function bundles the reference resolver, as the render function does for jobs written before', async () => {
    const { build } = await import('esbuild');
    const inputsOf = async (entry: string, native: boolean) => {
      const out = await build({ ...lambdaEsbuildOptions(entry, 'out/index.js', { native }), write: false, metafile: true });
      return Object.values(out.metafile!.outputs).flatMap((output) => Object.keys(output.inputs));
    };
    expect(await inputsOf(HANDLER_GROUPS.videos.entry, false)).toContain('functions/adapters/reference/direct-media-resolver.ts');
    expect(await inputsOf(PIPELINE_FUNCTIONS.render.entry, PIPELINE_FUNCTIONS.render.native)).toContain('functions/adapters/reference/direct-media-resolver.ts');
  });

  test('the MCP function bundles none of what the SDK imports for paths it never takes (Ajv, zod 3, its JSON Schema converter), and NodejsFunction gets the same replacements', async () => {
    const { build } = await import('esbuild');
    const variant = { absent: MCP_FUNCTION.absent };
    const out = await build({ ...lambdaEsbuildOptions(MCP_FUNCTION.entry, 'out/mcp.js', variant), write: false, metafile: true });
    const inputs = Object.values(out.metafile!.outputs).flatMap((output) => Object.keys(output.inputs));
    expect(inputs).toContain('functions/handlers/absent-module.ts');
    expect(inputs.filter((input) => /node_modules\/(ajv|ajv-formats|zod-to-json-schema|zod\/v3)\//.test(input))).toEqual([]);
    // The SDK itself and zod 4 stay.
    expect(inputs.some((input) => input.includes('node_modules/@modelcontextprotocol/sdk/'))).toBe(true);
    expect(inputs.some((input) => input.includes('node_modules/zod/v4/'))).toBe(true);
    const cdkArgs = lambdaBundlingProps(variant).esbuildArgs!;
    expect(Object.keys(cdkArgs).sort()).toEqual(MCP_FUNCTION.absent!.map((name) => `--alias:${name}`).sort());
    expect(new Set(Object.values(cdkArgs))).toEqual(new Set(Object.values(lambdaEsbuildOptions(MCP_FUNCTION.entry, 'out/mcp.js', variant).alias!)));
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
