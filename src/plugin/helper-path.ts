import { fileURLToPath } from 'node:url';
import { toPosix } from '../core/scan.js';

/** The registry helper that bundled generated code imports, by absolute path so it resolves on every host and layout. */
export const HELPER = toPosix(fileURLToPath(new URL('../runtime/registry.js', import.meta.url)));
