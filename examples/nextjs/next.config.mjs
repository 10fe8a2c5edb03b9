import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project root is the examples folder, so Turbopack compiles the shared proxy-config.ts and session.ts
 * one level up.
 * @type {import('next').NextConfig}
 */
export default { turbopack: { root: dirname(dirname(fileURLToPath(import.meta.url))) } };
