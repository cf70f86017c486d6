/**
 * Which tab a reader picked, per shared key (`:::tabs key:host`), kept in localStorage so every page's
 * tabs with that key open on it, and it survives a reload.
 */
import { reactive, type ComputedRef, type InjectionKey } from 'vue';

export const TABS: InjectionKey<{ uid: string; selected: ComputedRef<string | undefined> }> = Symbol('tabs');

const STORAGE_KEY = 'vitepress:tabsSharedState';
const shared = reactive<Record<string, string>>({});
let loaded = false;

function load(): void {
  if (loaded || typeof localStorage === 'undefined') return;
  loaded = true;
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}');
    if (stored && typeof stored === 'object') {
      for (const [key, value] of Object.entries(stored)) if (typeof value === 'string') shared[key] = value;
    }
  } catch {
    // a value another script wrote: start afresh
  }
}

export function rememberedTab(key: string): string | undefined {
  load();
  return shared[key];
}

export function rememberTab(key: string, label: string): void {
  load();
  shared[key] = label;
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(shared));
  } catch {
    // storage full or disabled: the choice lasts for this page view
  }
}
