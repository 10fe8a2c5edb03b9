import { gzipSync } from 'node:zlib';
import { resolve } from 'node:path';
import { build, type Rollup } from 'vite';
const root = resolve(import.meta.dirname, '../..');
const output = (await build({
  configFile: false,
  logLevel: 'silent',
  root,
  build: {
    write: false,
    minify: true,
    lib: { entry: resolve(root, 'src/react/index.ts'), formats: ['es'], fileName: 'bundle' },
    rollupOptions: { external: [/^react($|\/)/, /^react-dom($|\/)/] },
  },
})) as Rollup.RollupOutput[];
const chunks = output.flatMap((r) => r.output).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
const rows = chunks.flatMap((c) =>
  Object.entries(c.modules).map(
    ([id, m]) => [id.replace(root, ''), m.renderedLength, gzipSync(m.code ?? '').length] as const,
  ),
);
rows.sort((a, b) => b[1] - a[1]);
for (const r of rows.slice(0, 45)) console.log(r[1], r[2], r[0]);
