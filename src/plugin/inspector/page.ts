/**
 * The inspector page: page.html with page.css and the compiled client.ts inlined, so the page is one
 * document and makes no other request (the server's CSP allows only its own nonce). Read from the
 * inspector's folder in the build (dist/plugin/inspector/, put there by `npm run build`) once, on
 * the first request.
 */
import fs from 'node:fs';
import { inspectorFile } from './folder.js';

let pieces: string[] | undefined;

/** The page, with `nonce` on its one style and one script element. */
export function inspectorPage(nonce: string): string {
  pieces ??= load();
  return pieces.join(nonce);
}

/** The page split at its nonce slots; the inlined code is never searched for a slot. */
function load(): string[] {
  const read = (name: string) => {
    try {
      return fs.readFileSync(inspectorFile(name), 'utf8');
    } catch (error) {
      // Only a partial build gets here (the package ships all three): say which step is missing.
      throw new Error(`the page's ${name} is missing from the build (${(error as Error).message}); run \`npm run build\``);
    }
  };
  const css = read('page.css');
  const script = read('client.js');
  // Inlined text cannot escape its element; ours never holds such a sequence, so refuse rather than mangle.
  if (/<\/style/i.test(css) || /<\/script|<!--/i.test(script)) {
    throw new Error('the inspector page cannot inline its style or script (a closing tag inside them)');
  }
  return read('page.html')
    .split('%NONCE%')
    .map((piece) => piece.replace('%STYLE%', () => css).replace('%SCRIPT%', () => script));
}
