/**
 * A Lambda layer with the npm packages esbuild cannot bundle because they load native code: sharp
 * (libvips) and @napi-rs/canvas (Skia). They are copied from node_modules with their installed
 * dependencies (for linux x64, the platform packages npm chose), under nodejs/node_modules, where
 * the Lambda Node.js runtime resolves them. Functions that use them keep them external.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StagedTreeLayer, type StagedLayerProps } from './staged-layer';
import { FONT_PACKAGES, NATIVE_MODULES } from './bundling';

interface InstalledPackage {
  name: string;
  dir: string;
  version: string;
}

/** The packages and everything they depend on that npm installed here (optional platform packages included). */
function nativeModuleClosure(roots: readonly string[], projectRoot: string): InstalledPackage[] {
  const found = new Map<string, InstalledPackage>();
  const visit = (name: string, fromDir: string, optional: boolean) => {
    if (found.has(name)) return;
    const packageJson = findPackageJson(name, fromDir);
    if (!packageJson) {
      if (optional) return; // another platform's binary
      throw new Error(`${name} is not installed; the native-modules layer is built from node_modules (run npm install on linux x64)`);
    }
    const manifest = JSON.parse(fs.readFileSync(packageJson, 'utf8')) as {
      version: string;
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    const dir = path.dirname(packageJson);
    found.set(name, { name, dir, version: manifest.version });
    for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, dir, false);
    for (const dep of Object.keys(manifest.optionalDependencies ?? {})) visit(dep, dir, true);
  };
  for (const root of roots) visit(root, projectRoot, false);
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Node's own lookup, done by hand: packages with an `exports` map may not export package.json. */
export function findPackageJson(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name, 'package.json');
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The layer's tree: the native packages with their closure, and the caption fonts' files. */
export function nativeModulesTree(projectRoot: string): StagedLayerProps {
  const packages = nativeModuleClosure(NATIVE_MODULES, projectRoot);
  const fonts = FONT_PACKAGES.map((font) => ({ ...font, ...nativeModuleClosure([font.name], projectRoot)[0]! }));
  return {
    sourceDir: projectRoot,
    // Versions decide whether the tree changed; hashing 60 MB of binaries on every synth would not.
    assetHash: [...packages, ...fonts].map((p) => `${p.name}@${p.version}`).join(';'),
    stage(outputDir) {
      for (const p of packages) {
        const target = path.join(outputDir, 'nodejs', 'node_modules', p.name);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.cpSync(p.dir, target, { recursive: true, dereference: true });
      }
      for (const font of fonts) {
        const target = path.join(outputDir, 'nodejs', 'node_modules', font.name);
        fs.mkdirSync(path.join(target, font.folder), { recursive: true });
        fs.copyFileSync(path.join(font.dir, 'package.json'), path.join(target, 'package.json'));
        for (const file of fs.readdirSync(path.join(font.dir, font.folder)).filter((f) => font.files.test(f))) {
          fs.copyFileSync(path.join(font.dir, font.folder, file), path.join(target, font.folder, file));
        }
      }
    },
    description: `native npm packages: ${packages.map((p) => `${p.name}@${p.version}`).join(', ')}`,
  };
}

export class NativeModulesLayer extends StagedTreeLayer {}
