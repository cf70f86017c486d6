import type { Theme } from 'vitepress';
import DefaultTheme from 'vitepress/theme';
import Tabs from './tabs/Tabs.vue';
import TabPanel from './tabs/TabPanel.vue';
import './tabs/tabs.css';

// The default theme plus the components of `:::tabs` blocks (the markdown plugin emits `PluginTabs` and
// `PluginTabsTab`), so one page can hold a complete setup per host, every tab in the static HTML.
export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component('PluginTabs', Tabs);
    app.component('PluginTabsTab', TabPanel);
  },
} satisfies Theme;
