/** The site map: the sidebar of every page, in reading order. Plain data, so tests can read it without VitePress. */
export const sidebar = [
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
      { text: 'Comparing runs in CI', link: '/guide/comparing-runs' },
      { text: 'Datasets and experiments', link: '/guide/datasets-and-experiments' },
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
];
