import { gzipSync } from 'node:zlib';
import { resolve } from 'node:path';
import { build, type Rollup } from 'vite';
const root = resolve(import.meta.dirname, '../..');
for (const entry of ['dist/core.js', 'dist/index.js']) {
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    root,
    build: {
      write: false,
      minify: true,
      lib: { entry: resolve(root, entry), formats: ['es'], fileName: 'bundle' },
      rollupOptions: { external: [/^react($|\/)/, /^react-dom($|\/)/] },
    },
  })) as Rollup.RollupOutput[];
  const chunks = output.flatMap((r) => r.output).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
  console.log(
    entry,
    chunks.reduce((s, c) => s + gzipSync(c.code).length, 0),
  );
}
