/**
 * Every test run starts from an empty `test/.tmp`: each test's folders there have unique names
 * (pid and counter), so nothing else would ever remove the previous runs' copies.
 */
import fs from 'node:fs';
import path from 'node:path';

export default function setup(): void {
  fs.rmSync(path.resolve(import.meta.dirname, '.tmp'), { recursive: true, force: true });
}
