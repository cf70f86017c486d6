/**
 * Removes what earlier test runs left in `test/.tmp` (each test's folders there have unique names,
 * so nothing else ever would). Only entries untouched for an hour go: another run going on at the
 * same time (a watch-mode run, say) keeps its folders.
 */
import fs from 'node:fs';
import path from 'node:path';

const TMP = path.resolve(import.meta.dirname, '.tmp');
const STALE_MS = 60 * 60 * 1000;

export default function setup(): void {
  if (!fs.existsSync(TMP)) return;
  const cutoff = Date.now() - STALE_MS;
  for (const name of fs.readdirSync(TMP)) {
    const entry = path.join(TMP, name);
    if (fs.lstatSync(entry).mtimeMs < cutoff) fs.rmSync(entry, { recursive: true, force: true });
  }
}
