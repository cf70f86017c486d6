import { defineConfig } from 'vitepress';

// The site builds with no network: no remote fonts, analytics or search service. Dead links fail the
// build (VitePress's default; `ignoreDeadLinks` stays unset).
export default defineConfig({
  title: 'agent-scorers',
  description: 'Per-agent scorers/ folders compiled into a typed registry at build time, for Vite, Rollup, Rolldown, esbuild, Next.js and Node.',
  lang: 'en-US',
  cleanUrls: true,
  lastUpdated: false,
  head: [['meta', { name: 'theme-color', content: '#3c8772' }]],
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/', activeMatch: '^/guide/' },
      { text: 'Reference', link: '/reference/options', activeMatch: '^/reference/' },
    ],
    sidebar: [
      {
        text: 'Guide',
        items: [
          { text: 'What it is', link: '/guide/' },
          { text: 'Getting started', link: '/guide/getting-started' },
          { text: 'Conventions', link: '/guide/conventions' },
          { text: 'Registry and types', link: '/guide/registry-and-types' },
          { text: 'Generated registry file', link: '/guide/generated-registry' },
          { text: 'Dev server and watch', link: '/guide/dev-and-watch' },
          { text: 'Inspector', link: '/guide/inspector' },
          { text: 'Evals in CI', link: '/guide/evals-in-ci' },
          { text: 'Judge cache', link: '/guide/judge-cache' },
          { text: 'Reports', link: '/guide/reports' },
          { text: 'Monorepos', link: '/guide/monorepos' },
          { text: "Migrating from Mastra's CLI", link: '/guide/migrating-from-mastra' },
          { text: 'Troubleshooting', link: '/guide/troubleshooting' },
        ],
      },
      {
        text: 'Reference',
        items: [
          { text: 'Options', link: '/reference/options' },
          { text: 'Diagnostics', link: '/reference/diagnostics' },
          { text: 'Runtime API', link: '/reference/runtime-api' },
          { text: 'CLI', link: '/reference/cli' },
        ],
      },
    ],
    search: { provider: 'local' },
    outline: { level: [2, 3] },
    socialLinks: [{ icon: 'github', link: 'https://github.com/agent-scorers/agent-scorers' }],
    footer: { message: 'Released under the MIT License.' },
  },
});
