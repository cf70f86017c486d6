import { defineConfig } from 'vitepress';
import llmstxt from 'vitepress-plugin-llms';
import { tabsMarkdownPlugin } from 'vitepress-plugin-tabs';
import { sidebar } from './sidebar.js';

// The site builds with no network: no remote fonts, analytics or search service. Dead links fail the
// build (VitePress's default; `ignoreDeadLinks` stays unset).
export default defineConfig({
  title: 'agent-scorers',
  description: 'Per-agent scorers/ folders compiled into a typed registry at build time, for Vite, Rollup, Rolldown, esbuild, Next.js and Node.',
  lang: 'en-US',
  cleanUrls: true,
  lastUpdated: false,
  // llms.txt, llms-full.txt and a Markdown copy of each page, for coding assistants: made at build, offline.
  vite: { plugins: [llmstxt()] },
  // `:::tabs` blocks: one tab per host, each holding several code blocks (a code-group holds one per tab).
  markdown: {
    config(md) {
      md.use(tabsMarkdownPlugin);
    },
  },
  head: [
    ['meta', { name: 'theme-color', content: '#3c8772' }],
    // Marks a page whose scripts run, before the first paint: tabs then show only the selected panel
    // (theme/tabs/tabs.css); without scripts every panel shows.
    ['script', {}, "document.documentElement.dataset.js = '';"],
  ],
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/', activeMatch: '^/guide/' },
      { text: 'Reference', link: '/reference/options', activeMatch: '^/reference/' },
    ],
    sidebar,
    search: { provider: 'local' },
    outline: { level: [2, 3] },
    socialLinks: [{ icon: 'github', link: 'https://github.com/agent-scorers/agent-scorers' }],
    footer: { message: 'Released under the MIT License.' },
  },
});
