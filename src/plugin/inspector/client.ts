/// <reference lib="dom" />
/**
 * The inspector page's script, inlined by page.ts into page.html as a module script
 * with the request's CSP nonce. It talks to the inspector's API only (relative URLs), and every
 * piece of data goes in as text, never as HTML, so hostile agent or scorer names stay inert.
 *
 * Type-checked by its own tsconfig.json (DOM types here, Node types everywhere else); the JSON
 * shapes below are what the page reads from the API (index.ts and core/manifest.ts).
 */

type Sampling = { type: 'none' } | { type: 'ratio'; rate: number } | null;
interface ManifestScorer { source: 'file' | 'config'; file: string | null; sampling: Sampling }
interface ManifestAgent { dir: string; config: string | null; configScorers: string; scorers: Record<string, ManifestScorer> }
interface Diagnostic { code: string; severity: 'error' | 'warning'; agent: string | null; file: string | null; message: string }
interface Manifest { agents: Record<string, ManifestAgent>; diagnostics: Diagnostic[] }
/** Where scorers run (env.ts `Where`). */
interface Where { environment: string | null; runtime: string; how: 'runner' | 'bridge' | 'ssrLoadModule'; note: string | null }
interface State { revision: string; manifest: Manifest; runs?: Where }
/** An entry of `api/scorers` (describeEntry in exec.ts). */
interface RuntimeScorer { key: string; id: string | null; sampling: Sampling }
interface RunResult {
  agent: string;
  key: string;
  scorer: { id?: string | null } | null;
  score: number | null;
  reason: unknown;
  steps: { preprocess: unknown; analyze: unknown } | null;
  prompts: Record<string, string | null> | null;
  notScorable: { step: string; reason?: unknown } | null;
  durationMs?: number;
}

const byId = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`agent-scorers inspector: the page has no #${id}`);
  return el as T;
};
const els = {
  summary: byId('summary'), where: byId('where'), live: byId('live'), diagnostics: byId('diagnostics'), agents: byId('agents'),
  form: byId<HTMLFormElement>('run-form'), agent: byId<HTMLSelectElement>('agent'), scorer: byId<HTMLSelectElement>('scorer'),
  scorerNote: byId('scorer-note'), input: byId<HTMLTextAreaElement>('input'), output: byId<HTMLTextAreaElement>('output'),
  context: byId<HTMLTextAreaElement>('context'), run: byId<HTMLButtonElement>('run'), status: byId('result-status'), result: byId('result'),
};
let state: State | null = null;
// Dictionaries keyed by agent key: no prototype, so an agent named `__proto__` or `toString` is just a key.
const dict = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;
/** Agent key -> its scorers as resolved at run time. */
let runtime = dict<RuntimeScorer[]>();
let runtimeErrors = dict<string>();
/** Agent key -> the scorer files that could not load when it was resolved (the others still show). */
let runtimeFailed = dict<string[]>();
const pending = dict<true>();
const has = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

type Prop = string | number | boolean | null | undefined | ((event: Event) => void);
type Child = Node | string | number | null | undefined | false;

/** Builds an element; children are nodes or strings (always inserted as text). */
function h(tag: string, props?: Record<string, Prop> | null, children?: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props ?? {})) {
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = String(v);
    else if (k === 'class') el.className = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children ?? []) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
  return el;
}
const code = (text: string) => h('code', { text });
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The parsed JSON body; rejects with the server's `{ error }` (or the status) when the answer is not ok. */
async function request<T>(url: string, options?: RequestInit): Promise<T> {
  const res = await fetch(url, options);
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = { error: `The server answered ${res.status} with something that is not JSON.` };
  }
  if (!res.ok) {
    const error = (body as { error?: unknown } | null)?.error;
    throw new Error(typeof error === 'string' && error ? error : `HTTP ${res.status}`);
  }
  return body as T;
}

/** Parents before their subagents: compare the slash-separated chain segment by segment. */
function agentKeys(manifest: Manifest): string[] {
  return Object.keys(manifest.agents).sort((a, b) => {
    const x = a.split('/'), y = b.split('/');
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    }
    return x.length - y.length;
  });
}
const depth = (key: string) => Math.min(key.split('/').length - 1, 3);

const KIND_TEXT: Record<string, string> = {
  none: 'none: only the scorers/ files',
  record: 'record: merged with the scorers/ files (config wins on a key collision)',
  function: 'function: wins wholesale; the scorers/ files are ignored',
  unknown: 'unknown: not statically evident, so the keys below may change at run time',
};
const needsRuntime = (agent: ManifestAgent) => agent.configScorers === 'function' || agent.configScorers === 'unknown';

function samplingText(s: Sampling): string {
  if (!s) return 'not set / dynamic';
  if (s.type === 'none') return 'none (always runs)';
  if (s.type === 'ratio') return `ratio ${s.rate} (${Math.round(s.rate * 1000) / 10}% of runs)`;
  return JSON.stringify(s);
}

function renderSummary(m: Manifest): void {
  const keys = agentKeys(m);
  const subs = keys.filter((k) => k.includes('/')).length;
  const scorers = keys.reduce((n, k) => n + Object.keys(m.agents[k].scorers).length, 0);
  const errors = m.diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = m.diagnostics.length - errors;
  els.summary.textContent = `${plural(keys.length - subs, 'agent', 'agents')}, ${plural(subs, 'subagent', 'subagents')}, ` +
    `${plural(scorers, 'scorer', 'scorers')} known at build time; ${plural(errors, 'error', 'errors')}, ${plural(warnings, 'warning', 'warnings')}.`;
}

/** Where scorers run: the environment that imports the registry, and its runtime. */
function renderWhere(runs: Where | undefined): void {
  els.where.textContent = '';
  if (!runs) return;
  const runtime = runs.runtime === 'node' ? 'Node, in the dev server\'s process' : runs.runtime;
  // `ssrLoadModule`: not in any environment of the app, but in Node; the note says why.
  const place: Child[] = runs.environment === null || runs.how === 'ssrLoadModule' ? [runtime, '.'] : ['the ', code(runs.environment), ` environment (${runtime}), where your app imports them.`];
  els.where.appendChild(h('span', {}, ['Scorers run in ', ...place]));
  if (runs.note) els.where.appendChild(h('span', { class: 'where-note', role: 'note', text: ` ${runs.note}` }));
}

const agentAnchor = (m: Manifest, key: string) => `agent-${agentKeys(m).indexOf(key)}`;

function renderDiagnostics(m: Manifest): void {
  const list = m.diagnostics;
  els.diagnostics.textContent = '';
  if (list.length === 0) {
    els.diagnostics.appendChild(h('p', { class: 'clean' }, [h('span', { class: 'badge ok', text: 'OK' }), 'No diagnostics: everything compiled cleanly.']));
    return;
  }
  els.diagnostics.appendChild(h('ul', { class: 'diag-list' }, list.map((d) => {
    const where: Child[] = [];
    if (d.agent !== null && has(m.agents, d.agent)) {
      where.push(' agent ', h('a', { href: `#${agentAnchor(m, d.agent)}` }, [code(d.agent)]));
    } else if (d.agent !== null) where.push(' agent ', code(d.agent));
    if (d.file) where.push(' in ', code(d.file));
    return h('li', { class: d.severity }, [
      h('span', { class: `badge ${d.severity}`, text: d.severity }), code(d.code), h('span', {}, where),
      h('p', { text: d.message }),
    ]);
  })));
}

/** A table head whose last column is the unlabelled (for the eye) action column. */
function head(titles: string[]): HTMLElement {
  return h('thead', {}, [h('tr', {}, [...titles, ''].map((t, i) =>
    h('th', { scope: 'col' }, [i === titles.length ? h('span', { class: 'sr-only', text: 'Action' }) : t])))]);
}

function scorerTable(agentKey: string, agent: ManifestAgent): HTMLElement | null {
  const keys = Object.keys(agent.scorers);
  if (keys.length === 0) return null;
  return h('table', {}, [
    h('caption', { class: 'sr-only', text: `Scorers of ${agentKey} known at build time` }),
    head(['Key', 'Source', 'File', 'Sampling']),
    h('tbody', {}, keys.map((key) => {
      const s = agent.scorers[key];
      const file = s.source === 'file' ? s.file : agent.config;
      return h('tr', {}, [
        h('th', { scope: 'row' }, [code(key)]),
        h('td', { class: 'nowrap', text: s.source === 'file' ? 'scorers/ file' : 'config.scorers' }),
        h('td', { class: 'file' }, [file ? code(file) : '']),
        h('td', { text: samplingText(s.sampling) }),
        h('td', {}, [tryButton(agentKey, key)]),
      ]);
    })),
  ]);
}

function tryButton(agentKey: string, key: string): HTMLElement {
  return h('button', {
    type: 'button', 'aria-label': `Try ${key} of ${agentKey}`, text: 'Try', 'data-focus-id': JSON.stringify(['try', agentKey, key]),
    onclick: () => { choose(agentKey, key); els.input.focus(); },
  });
}

function runtimeBlock(agentKey: string, agent: ManifestAgent): HTMLElement | null {
  const list = runtime[agentKey];
  if (!needsRuntime(agent) && !list) return null;
  const parts: Child[] = [];
  if (list) {
    parts.push(h('p', { class: 'note', text: `At run time, config.scorers gives ${plural(list.length, 'scorer', 'scorers')}:` }));
    if (list.length) parts.push(h('table', {}, [
      h('caption', { class: 'sr-only', text: `Scorers of ${agentKey} resolved at run time` }),
      head(['Key', 'Scorer id', 'Sampling']),
      h('tbody', {}, list.map((s) => h('tr', {}, [
        h('th', { scope: 'row' }, [code(s.key)]), h('td', {}, [s.id ? code(s.id) : '']), h('td', { text: samplingText(s.sampling) }), h('td', {}, [tryButton(agentKey, s.key)]),
      ]))),
    ]));
  } else if (runtimeErrors[agentKey]) {
    parts.push(h('p', { class: 'error-box', role: 'alert', text: runtimeErrors[agentKey] }));
  }
  for (const text of runtimeFailed[agentKey] ?? []) parts.push(h('p', { class: 'error-box', role: 'alert', text }));
  const label = list ? 'Resolve again' : 'Resolve at run time';
  parts.push(h('p', {}, [h('button', {
    type: 'button', text: label, 'aria-label': `${label}: ${agentKey}`, 'data-focus-id': JSON.stringify(['resolve', agentKey]),
    onclick: () => resolveRuntime(agentKey, true),
  })]));
  return h('div', {}, parts);
}

/** Re-rendering keeps keyboard focus on the same button (by its data-focus-id), if it still exists. */
function renderAgents(changed?: Record<string, true>): void {
  const active = document.activeElement;
  const focusId = active && els.agents.contains(active) ? active.getAttribute('data-focus-id') : null;
  drawAgents(changed);
  if (focusId) {
    const same = [...els.agents.querySelectorAll<HTMLElement>('[data-focus-id]')].find((el) => el.getAttribute('data-focus-id') === focusId);
    same?.focus();
  }
}

function drawAgents(changed?: Record<string, true>): void {
  if (!state) return;
  const m = state.manifest, keys = agentKeys(m);
  els.agents.textContent = '';
  if (keys.length === 0) {
    els.agents.appendChild(h('p', { class: 'note', text: 'No agent folders found. Create src/mastra/agents/<name>/scorers/<key>.ts (or set the agentsDir option).' }));
    return;
  }
  keys.forEach((key, index) => {
    const a = m.agents[key], d = depth(key), headingId = `agent-${index}-h`;
    const own = m.diagnostics.filter((x) => x.agent === key), count = own.length;
    const worst = own.some((x) => x.severity === 'error') ? 'error' : 'warning';
    const n = Object.keys(a.scorers).length;
    els.agents.appendChild(h('article', { class: `agent${changed?.[key] ? ' changed' : ''}`, id: `agent-${index}`, 'data-depth': d, 'aria-labelledby': headingId, 'data-agent': key }, [
      h('h3', { id: headingId }, [
        d > 0 ? h('span', { class: 'badge plain', text: 'subagent' }) : null,
        code(key),
        count ? h('span', { class: `badge ${worst}`, text: plural(count, 'diagnostic', 'diagnostics') }) : null,
      ]),
      h('dl', { class: 'meta' }, [
        h('dt', { text: 'Folder' }), h('dd', {}, [code(a.dir)]),
        h('dt', { text: 'Config' }), h('dd', {}, [a.config ? code(a.config) : 'none']),
        h('dt', { text: 'config.scorers' }), h('dd', { text: (has(KIND_TEXT, a.configScorers) && KIND_TEXT[a.configScorers]) || a.configScorers }),
      ]),
      n === 0 && a.configScorers !== 'function' ? h('p', { class: 'note', text: 'No scorers.' }) : null,
      scorerTable(key, a),
      runtimeBlock(key, a),
    ]));
  });
}

function scorerChoices(agentKey: string): string[] {
  const list = runtime[agentKey];
  if (list) return list.map((s) => s.key);
  const a = state && has(state.manifest.agents, agentKey) ? state.manifest.agents[agentKey] : undefined;
  return a ? Object.keys(a.scorers) : [];
}

function fillAgentSelect(m: Manifest): void {
  const keep = els.agent.value, keys = agentKeys(m);
  els.agent.textContent = '';
  for (const k of keys) els.agent.appendChild(h('option', { value: k, text: k }));
  if (keys.includes(keep)) els.agent.value = keep;
  fillScorerSelect();
}

function fillScorerSelect(prefer?: string): void {
  const agentKey = els.agent.value, keep = prefer || els.scorer.value;
  const keys = agentKey ? scorerChoices(agentKey) : [];
  const a = state && has(state.manifest.agents, agentKey) ? state.manifest.agents[agentKey] : undefined;
  els.scorer.textContent = '';
  for (const k of keys) els.scorer.appendChild(h('option', { value: k, text: k }));
  if (keys.includes(keep)) els.scorer.value = keep;
  let note = '';
  if (!agentKey) note = 'No agents yet.';
  else if (pending[agentKey]) note = 'Resolving config.scorers at run time…';
  else if (runtimeErrors[agentKey] && !runtime[agentKey]) note = runtimeErrors[agentKey];
  else if (keys.length === 0) note = 'This agent has no scorers.';
  else if (a && !runtime[agentKey] && a.configScorers === 'unknown') note = 'Keys known at build time; more may exist at run time.';
  els.scorerNote.textContent = note;
  els.scorer.disabled = keys.length === 0;
  els.run.disabled = keys.length === 0 || els.form.getAttribute('aria-busy') === 'true';
  if (agentKey && a && !runtime[agentKey] && !pending[agentKey] && !runtimeErrors[agentKey] && needsRuntime(a)) resolveRuntime(agentKey, false);
}

function choose(agentKey: string, key: string): void {
  els.agent.value = agentKey;
  fillScorerSelect(key);
}

/** The request context as an object, or undefined when the field is empty; throws when it is not a JSON object. */
function contextValue(): Record<string, unknown> | undefined {
  const text = els.context.value.trim();
  if (!text) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`the request context is not valid JSON: ${messageOf(error)}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('the request context must be a JSON object');
  return value as Record<string, unknown>;
}

async function resolveRuntime(agentKey: string, fromButton: boolean): Promise<void> {
  let context: Record<string, unknown> | undefined;
  try {
    context = contextValue();
  } catch (error) {
    runtimeErrors[agentKey] = `Not resolved: ${messageOf(error)}`;
    renderAgents();
    if (els.agent.value === agentKey) els.scorerNote.textContent = runtimeErrors[agentKey];
    return;
  }
  pending[agentKey] = true;
  if (els.agent.value === agentKey) els.scorerNote.textContent = 'Resolving config.scorers at run time…';
  try {
    // A POST: resolving runs the config's function, which the server never does for a GET.
    const body = await request<{ scorers: RuntimeScorer[]; failed?: Array<{ key: string; error: string }> }>('api/scorers', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ agent: agentKey, ...(context ? { requestContext: context } : {}) }),
    });
    runtime[agentKey] = body.scorers;
    delete runtimeErrors[agentKey];
    if (body.failed?.length) runtimeFailed[agentKey] = body.failed.map((f) => f.error);
    else delete runtimeFailed[agentKey];
  } catch (error) {
    runtimeErrors[agentKey] = messageOf(error);
  }
  delete pending[agentKey];
  renderAgents();
  if (els.agent.value === agentKey) fillScorerSelect();
  if (fromButton) {
    const list = runtime[agentKey];
    els.status.textContent = list ? `Resolved ${plural(list.length, 'scorer', 'scorers')} of ${agentKey} at run time.` : `Could not resolve ${agentKey}.`;
  }
}

function render(next: State, changed?: Record<string, true>): void {
  state = next;
  runtime = dict();
  runtimeErrors = dict();
  runtimeFailed = dict();
  renderSummary(next.manifest);
  renderWhere(next.runs);
  renderDiagnostics(next.manifest);
  renderAgents(changed);
  fillAgentSelect(next.manifest);
}

/** What changed between two manifests, in words, and which agents to highlight. */
function difference(prev: State, next: State): { text: string; changed: Record<string, true> } {
  const words: string[] = [], changed = dict<true>();
  const before = prev.manifest.agents, after = next.manifest.agents;
  for (const k of Object.keys(after)) {
    if (!has(before, k)) { words.push(`agent ${k} added`); changed[k] = true; continue; }
    const b = Object.keys(before[k].scorers), a = Object.keys(after[k].scorers);
    for (const s of a) if (!b.includes(s)) { words.push(`scorer ${k}/${s} added`); changed[k] = true; }
    for (const s of b) if (!a.includes(s)) { words.push(`scorer ${k}/${s} removed`); changed[k] = true; }
    if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) changed[k] = true;
  }
  for (const k of Object.keys(before)) if (!has(after, k)) words.push(`agent ${k} removed`);
  const dBefore = prev.manifest.diagnostics.length, dAfter = next.manifest.diagnostics.length;
  if (dBefore !== dAfter) words.push(`${plural(dAfter, 'diagnostic', 'diagnostics')} now`);
  return { text: words.length ? `Updated: ${words.join('; ')}.` : 'Updated.', changed };
}

function connect(): void {
  if (!window.EventSource) { els.live.textContent = 'Reload to see changes'; return; }
  const source = new EventSource(`api/events${state ? `?since=${encodeURIComponent(state.revision)}` : ''}`);
  source.addEventListener('open', () => { els.live.textContent = 'Live'; els.live.setAttribute('data-on', 'true'); });
  source.addEventListener('error', () => { els.live.textContent = 'Reconnecting…'; els.live.setAttribute('data-on', 'false'); });
  source.addEventListener('state', (event) => {
    let next: State | null;
    try {
      next = JSON.parse((event as MessageEvent<string>).data) as State | null;
    } catch {
      return;
    }
    if (!next || !next.manifest || (state && next.revision === state.revision)) return;
    const diff = state ? difference(state, next) : null;
    render(next, diff?.changed);
    if (diff) els.status.textContent = diff.text;
  });
}

/** Input and output as Mastra hands them to an agent's scorers, as plain strings, or as JSON. */
function message(role: 'user' | 'assistant', text: string, n: number) {
  return { id: `inspector-${role}-${n}`, role, content: { format: 2, parts: [{ type: 'text', text }], content: text } };
}
function payloadValues(): { input: unknown; output: unknown } {
  const mode = els.form.querySelector<HTMLInputElement>('input[name="as"]:checked')?.value || 'messages';
  const input = els.input.value, output = els.output.value;
  if (mode === 'text') return { input, output };
  if (mode === 'json') {
    const parse = (name: string, text: string): unknown => {
      try {
        return JSON.parse(text);
      } catch (error) {
        throw new Error(`${name} is not valid JSON: ${messageOf(error)}`);
      }
    };
    return { input: parse('input', input), output: parse('output', output) };
  }
  return {
    input: { inputMessages: [message('user', input, 1)], rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} },
    output: [message('assistant', output, 2)],
  };
}

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

function verdictTable(statements: unknown[], results: unknown[]): HTMLElement {
  const n = Math.max(statements.length, results.length);
  const rows: HTMLElement[] = [];
  for (let i = 0; i < n; i++) {
    const r = (results[i] ?? {}) as { result?: unknown; reason?: unknown };
    const verdict = typeof r.result === 'string' ? r.result : '';
    const cls = verdict === 'yes' || verdict === 'unsure' ? verdict : 'no';
    rows.push(h('tr', {}, [
      h('td', { text: String(i + 1) }),
      h('td', { text: i < statements.length ? String(statements[i]) : '' }),
      h('td', {}, [verdict ? h('span', { class: `badge ${cls}`, text: verdict }) : '']),
      h('td', { text: r.reason ? String(r.reason) : '' }),
    ]));
  }
  return h('table', {}, [
    h('caption', { class: 'sr-only', text: 'Statements and verdicts' }),
    h('thead', {}, [h('tr', {}, ['#', 'Statement', 'Verdict', 'Why'].map((t) => h('th', { scope: 'col', text: t })))]),
    h('tbody', {}, rows),
  ]);
}

/** The array at `value[field]`, or null: step results are whatever the scorer returned. */
function arrayField(value: unknown, field: string): unknown[] | null {
  const found = value && typeof value === 'object' ? (value as Record<string, unknown>)[field] : undefined;
  return Array.isArray(found) ? found : null;
}

function renderResult(body: RunResult): void {
  const steps: Record<string, unknown> = body.steps ?? {};
  const statements = arrayField(steps.preprocess, 'statements');
  const results = arrayField(steps.analyze, 'results');
  const parts: HTMLElement[] = [h('h3', {}, ['Result: ', code(body.agent), ' › ', code(body.key)])];
  if (body.notScorable) {
    const why = body.notScorable.reason ? `: ${show(body.notScorable.reason)}` : '';
    parts.push(h('p', { class: 'reason', text: `Not scorable (step ${body.notScorable.step})${why}` }));
  } else {
    parts.push(h('p', { class: 'score', id: 'score', text: body.score === null ? '—' : String(body.score) }));
  }
  if (body.reason !== null && body.reason !== undefined) parts.push(h('p', { class: 'reason', id: 'reason', text: show(body.reason) }));
  if (statements || results) {
    parts.push(h('h4', { text: 'Statements and verdicts' }), verdictTable(statements ?? [], results ?? []));
  }
  for (const [step, title] of [['preprocess', 'Preprocess step result'], ['analyze', 'Analyze step result']]) {
    const value = steps[step];
    if (value !== null && value !== undefined) parts.push(h('details', {}, [h('summary', { text: title }), h('pre', { text: show(value) })]));
  }
  const prompts = body.prompts ?? {};
  const promptKeys = Object.keys(prompts).filter((k) => prompts[k]);
  if (promptKeys.length) {
    parts.push(h('details', {}, [
      h('summary', { text: 'Judge prompts' }),
      ...promptKeys.map((k) => h('div', {}, [h('h4', { text: k }), h('pre', { text: prompts[k] })])),
    ]));
  }
  const meta = [`scorer id ${body.scorer?.id || '?'}`];
  if (typeof body.durationMs === 'number') meta.push(`${body.durationMs} ms`);
  parts.push(h('p', { class: 'note', text: meta.join(' · ') }));
  els.result.textContent = '';
  for (const p of parts) els.result.appendChild(p);
}

function renderError(text: string): void {
  els.result.textContent = '';
  els.result.appendChild(h('p', { class: 'error-box', id: 'run-error', text }));
}

els.agent.addEventListener('change', () => fillScorerSelect());
// The function form may give other scorers for another request context: resolve again.
els.context.addEventListener('change', () => {
  const agentKey = els.agent.value;
  const a = state && has(state.manifest.agents, agentKey) ? state.manifest.agents[agentKey] : undefined;
  const stale = [...Object.keys(runtime), ...Object.keys(runtimeErrors)];
  for (const k of stale) { delete runtime[k]; delete runtimeErrors[k]; }
  // Leaving the field fires 'change' while focus moves on (perhaps to a button in the list): redraw
  // after the move, so the redraw can put focus back on that button.
  if (stale.length) setTimeout(renderAgents, 0);
  if (a && needsRuntime(a)) void resolveRuntime(agentKey, false);
});
els.form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const agentKey = els.agent.value, key = els.scorer.value;
  if (!agentKey || !key) return;
  let values: { input: unknown; output: unknown }, context: Record<string, unknown> | undefined;
  try {
    values = payloadValues();
    context = contextValue();
  } catch (error) {
    els.status.textContent = `Not run: ${messageOf(error)}`;
    renderError(messageOf(error));
    return;
  }
  els.form.setAttribute('aria-busy', 'true');
  els.run.disabled = true;
  els.status.textContent = `Running ${key} of ${agentKey}…`;
  try {
    const body = await request<RunResult>('api/run', {
      method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ agent: agentKey, key, input: values.input, output: values.output, requestContext: context }),
    });
    renderResult(body);
    els.status.textContent = body.notScorable ? `${key}: not scorable.` : `Score ${body.score === null ? 'none' : body.score} for ${key} of ${agentKey}.`;
  } catch (error) {
    renderError(messageOf(error));
    els.status.textContent = `Error: ${messageOf(error)}`;
  }
  els.form.removeAttribute('aria-busy');
  fillScorerSelect();
});

request<State>('api/state').then((body) => {
  render(body);
  connect();
}, (error: unknown) => {
  els.summary.textContent = `Could not load the registry state: ${messageOf(error)}`;
  connect();
});
