import { defineConfig } from 'vite';
// In your own project: `import agentScorers from 'agent-scorers/vite'`. The playground uses this
// repository's build (`npm run build` writes ../dist), through the package's own name.
import agentScorers from 'agent-scorers/vite';

export default defineConfig({
  plugins: [
    agentScorers({
      // Emits dist/agent-scorers.manifest.json: what was compiled, where each scorer came from.
      manifest: true,
    }),
  ],
  build: {
    // A server (SSR) build: the output is a Node program, with dependencies left as imports.
    ssr: 'src/server.ts',
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: { output: { entryFileNames: 'server.js' } },
  },
});
