/**
 * The inspector's own folder in the build (dist/plugin/inspector/), where the page's files and
 * exec.js sit. This module is its own file there (tsc's output, the tests) or is inlined into
 * dist/plugin/vite.js by scripts/bundle-plugin.mjs: `import.meta.url` is then the bundle's, one
 * folder up, so the folder is found from whichever file this code runs in.
 */
export function inspectorFile(name: string): URL {
  const here = new URL(import.meta.url);
  const inFolder = /\/inspector\/[^/]+$/.test(here.pathname);
  return new URL(inFolder ? `./${name}` : `./inspector/${name}`, here);
}
