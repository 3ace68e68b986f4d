import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EngineError } from '#ports/engine';
import {
  getHuman,
  humanConfig,
  humanModelDir,
  isHumanLoaded,
  modelsLoaded,
} from '#functions/render/face/human-loader';

// Before anything here loads tfjs: the WASM runtime's own process-wide error listeners must not stay.
const listenersAtStart = [process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')];

describe('human loader', () => {
  test('importing the face modules loads no tfjs (API handlers that never render stay light)', async () => {
    await import('#functions/render/face/landmarks');
    await import('#functions/render/face/photo-renderer');
    await import('#functions/render/face/reference-motion');
    await import('#functions/render/face/index');
    expect(isHumanLoaded()).toBe(false);
  });

  test('the config asks for the face detector, mesh and iris only, from the package, on WASM', () => {
    const config = humanConfig('/models', '/wasm') as {
      backend: string;
      wasmPath: string;
      modelBasePath: string;
      face: Record<string, { enabled?: boolean }>;
      body: { enabled: boolean };
      hand: { enabled: boolean };
      object: { enabled: boolean };
      segmentation: { enabled: boolean };
    };
    expect(config.backend).toBe('wasm');
    expect(config.wasmPath).toBe('/wasm/');
    expect(config.modelBasePath).toBe('file:///models/');
    expect(config.face.detector!.enabled).toBe(true);
    expect(config.face.mesh!.enabled).toBe(true);
    expect(config.face.iris!.enabled).toBe(true);
    for (const off of ['emotion', 'description', 'antispoof', 'liveness', 'attention', 'gear']) expect(config.face[off]!.enabled).toBe(false);
    expect([config.body.enabled, config.hand.enabled, config.object.enabled, config.segmentation.enabled]).toEqual([false, false, false, false]);
    expect(humanModelDir()).toMatch(/@vladmandic[/\\]human[/\\]models$/);
  });

  test('loads once, offline: WASM backend, models read from disk, no network call, process left as it was', async () => {
    const realFetch = globalThis.fetch;
    const fetchCalls: string[] = [];
    globalThis.fetch = (async (input: unknown) => {
      fetchCalls.push(String(input));
      throw new Error('network is off in this test');
    }) as typeof fetch;
    try {
      const [a, b] = await Promise.all([getHuman(), getHuman()]);
      expect(a).toBe(b);
      expect(await getHuman()).toBe(a);
      expect(isHumanLoaded()).toBe(true);
      expect(a.tf.getBackend()).toBe('wasm');
      expect(modelsLoaded(a)).toEqual(expect.arrayContaining(['blazeface', 'facemesh', 'iris']));
      expect(modelsLoaded(a)).not.toEqual(expect.arrayContaining(['emotion']));
      expect(fetchCalls).toEqual([]);
      expect([process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')]).toEqual(listenersAtStart);
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  test('models that cannot be read fail as engine_failure, with what is missing', async () => {
    const empty = await fsp.mkdtemp(path.join(os.tmpdir(), 'rs-no-models-'));
    try {
      // A fresh module registry: human keeps its models per module instance, and the other tests
      // here already loaded them.
      let failure: unknown = null;
      await jest.isolateModulesAsync(async () => {
        const fresh = await import('#functions/render/face/human-loader');
        failure = await fresh.loadHuman({ modelDir: empty }).then(
          () => null,
          (error: unknown) => error,
        );
      });
      // (EngineError of the isolated registry: compared by name and code.)
      expect(failure).toMatchObject({ name: 'EngineError', code: 'engine_failure', retryable: false });
      expect((failure as EngineError).message).toMatch(/face landmark models could not be loaded.*blazeface/);
    } finally {
      await fsp.rm(empty, { recursive: true, force: true });
    }
  });
});
