import { build } from 'esbuild';
import { lambdaEsbuildOptions } from '#cloud/bundling';
void (async () => {
  const r = await build({ ...lambdaEsbuildOptions(process.cwd() + '/functions/handlers/mcp.ts', '/tmp/mcpb/index.js', {}), metafile: true });
  const out = Object.values(r.metafile!.outputs)[0]!;
  console.log('bytes', out.bytes);
  const parts = new Map<string, number>();
  for (const [k, v] of Object.entries(out.inputs)) { const m = k.match(/node_modules\/(zod\/v[34]\/[a-z]+|(@[^/]+\/)?[^/]+)/); const key = m ? m[1]! : '(project)'; parts.set(key, (parts.get(key) ?? 0) + v.bytesInOutput); }
  for (const [k, v] of [...parts].sort((a, b) => b[1] - a[1]).slice(0, 16)) console.log((v / 1024).toFixed(1).padStart(7), k);
})();
