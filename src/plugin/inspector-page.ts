/**
 * The inspector page: one HTML document with its CSS and a little vanilla JS, served by
 * inspector.ts. No framework, no external request (the server's CSP forbids any), and every piece
 * of data is inserted as text, never as HTML, so hostile agent or scorer names stay inert.
 *
 * The script is plain ES2019 written without template literals, so it can live in this string.
 */

const CSS = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1b1d21; --muted: #4b5260; --line: #d5d9e0; --panel: #f5f7fa; --code: #eef1f5;
  --accent: #0b57d0; --accent-fg: #ffffff; --focus: #b8570a;
  --ok-bg: #e3f3e8; --ok-fg: #0d5224; --warn-bg: #fff1cc; --warn-fg: #5c3d00; --err-bg: #fde4e4; --err-fg: #8a1111;
  --unsure-bg: #fff1cc; --unsure-fg: #5c3d00;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #15171b; --fg: #e9ecf1; --muted: #b3bac6; --line: #3a404b; --panel: #1e2127; --code: #2a2f38;
    --accent: #8ab4f8; --accent-fg: #0b1a33; --focus: #ffb86b;
    --ok-bg: #173d24; --ok-fg: #b9f0c9; --warn-bg: #4a3800; --warn-fg: #ffe3a1; --err-bg: #4d1515; --err-fg: #ffc9c9;
    --unsure-bg: #4a3800; --unsure-fg: #ffe3a1;
  }
}
* { box-sizing: border-box; }
html { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; background: var(--bg); color: var(--fg); }
body { margin: 0; }
code, pre, textarea { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 0.9em; }
code { background: var(--code); padding: 0.05em 0.35em; border-radius: 4px; overflow-wrap: anywhere; }
th code { overflow-wrap: normal; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: 8px; top: -48px; background: var(--bg); padding: 8px 12px; z-index: 2; }
.skip:focus { top: 8px; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
header.top { border-bottom: 1px solid var(--line); padding: 14px 24px; display: flex; flex-wrap: wrap; gap: 4px 24px; align-items: baseline; }
header.top h1 { font-size: 1.3rem; margin: 0; }
header.top h1 span { color: var(--muted); font-weight: 500; }
#summary { margin: 0; color: var(--muted); }
#live { margin: 0 0 0 auto; color: var(--muted); font-size: 0.9rem; }
#live::before { content: ""; display: inline-block; width: 0.6em; height: 0.6em; border-radius: 50%; margin-right: 0.4em; background: var(--muted); vertical-align: 0.05em; }
#live[data-on="true"]::before { background: #1f8a44; }
main { padding: 16px 24px 32px; }
.layout { display: grid; gap: 24px; grid-template-columns: minmax(0, 1fr); }
@media (min-width: 980px) {
  .layout { grid-template-columns: minmax(0, 1fr) minmax(340px, 440px); align-items: start; }
  #try { position: sticky; top: 16px; max-height: calc(100vh - 32px); overflow: auto; }
}
h2 { font-size: 1.1rem; margin: 8px 0 10px; }
h3 { font-size: 1rem; margin: 0 0 6px; }
.diag-list { list-style: none; margin: 0 0 20px; padding: 0; display: grid; gap: 8px; }
.diag-list li { border: 1px solid var(--line); border-left-width: 5px; border-radius: 6px; padding: 8px 12px; }
.diag-list li.error { border-left-color: var(--err-fg); }
.diag-list li.warning { border-left-color: var(--warn-fg); }
.diag-list p { margin: 4px 0 0; }
.badge { display: inline-block; font-size: 0.78rem; font-weight: 600; padding: 0.05em 0.5em; border-radius: 999px; margin-right: 6px; }
.badge.ok, .badge.yes { background: var(--ok-bg); color: var(--ok-fg); }
.badge.warning, .badge.unsure { background: var(--warn-bg); color: var(--warn-fg); }
.badge.error, .badge.no { background: var(--err-bg); color: var(--err-fg); }
.badge.plain { background: var(--code); color: var(--fg); }
.clean { margin: 0 0 20px; }
.agent { border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; margin: 0 0 12px; background: var(--bg); }
.agent[data-depth="1"] { margin-left: 24px; }
.agent[data-depth="2"] { margin-left: 48px; }
.agent[data-depth="3"] { margin-left: 72px; }
.agent.changed { box-shadow: 0 0 0 3px var(--accent); }
dl.meta { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 12px; margin: 0 0 8px; font-size: 0.92rem; }
dl.meta dt { color: var(--muted); }
dl.meta dd { margin: 0; }
table { border-collapse: collapse; width: 100%; font-size: 0.92rem; }
th, td { text-align: left; padding: 6px 8px; border-top: 1px solid var(--line); vertical-align: top; }
thead th { border-top: 0; color: var(--muted); font-weight: 600; font-size: 0.85rem; }
tbody th { font-weight: 500; }
tbody th code, td.nowrap { white-space: nowrap; }
td.file code { overflow-wrap: anywhere; }
.note { color: var(--muted); margin: 6px 0; font-size: 0.92rem; }
button { font: inherit; border-radius: 6px; border: 1px solid var(--accent); padding: 4px 12px; cursor: pointer; background: var(--bg); color: var(--accent); }
button.primary { background: var(--accent); color: var(--accent-fg); font-weight: 600; padding: 8px 18px; }
button:disabled { opacity: 0.6; cursor: not-allowed; }
#try { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; }
form { display: grid; gap: 4px; }
label, legend { font-weight: 600; margin-top: 8px; }
.hint { color: var(--muted); font-weight: 400; font-size: 0.88rem; }
#scorer-note { margin: 2px 0; }
#scorer-note:empty { display: none; }
select, textarea { font: inherit; width: 100%; padding: 6px 8px; border: 1px solid var(--muted); border-radius: 6px; background: var(--bg); color: var(--fg); }
textarea { resize: vertical; font-size: 0.9rem; }
fieldset { border: 0; padding: 0; margin: 4px 0 8px; display: flex; flex-wrap: wrap; gap: 4px 16px; }
fieldset legend { padding: 0; margin-bottom: 2px; }
fieldset label { font-weight: 400; margin: 0; }
.actions { margin-top: 8px; }
#result-status { margin: 14px 0 6px; font-weight: 600; min-height: 1.5em; }
.score { font-size: 2rem; font-weight: 700; margin: 0; line-height: 1.2; }
.error-box { background: var(--err-bg); color: var(--err-fg); border-radius: 6px; padding: 8px 12px; white-space: pre-wrap; overflow-wrap: anywhere; }
.reason { margin: 6px 0 12px; }
details { margin: 8px 0; }
summary { cursor: pointer; font-weight: 600; }
pre { background: var(--code); padding: 8px; border-radius: 6px; overflow: auto; max-height: 320px; white-space: pre-wrap; overflow-wrap: anywhere; }
footer { color: var(--muted); font-size: 0.85rem; padding: 0 24px 24px; }
`;

const SCRIPT = `
(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  var els = {
    summary: $('summary'), live: $('live'), diagnostics: $('diagnostics'), agents: $('agents'),
    form: $('run-form'), agent: $('agent'), scorer: $('scorer'), scorerNote: $('scorer-note'),
    input: $('input'), output: $('output'), context: $('context'), run: $('run'), status: $('result-status'), result: $('result')
  };
  var state = null;
  var runtime = Object.create(null); /* agent key -> scorers as resolved at run time */
  var runtimeErrors = Object.create(null);
  var pending = Object.create(null);

  /* Builds an element; children are nodes or strings (always inserted as text). */
  function h(tag, props, children) {
    var el = document.createElement(tag);
    if (props) Object.keys(props).forEach(function (k) {
      var v = props[k];
      if (v === null || v === undefined || v === false) return;
      if (k === 'text') el.textContent = v;
      else if (k === 'class') el.className = v;
      else if (k === 'for') el.htmlFor = v;
      else if (k.slice(0, 2) === 'on') el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? '' : String(v));
    });
    (children || []).forEach(function (c) {
      if (c === null || c === undefined || c === false) return;
      el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
    });
    return el;
  }
  function code(text) { return h('code', { text: text }); }
  function plural(n, one, many) { return n + ' ' + (n === 1 ? one : many); }

  function request(url, options) {
    return fetch(url, options).then(function (res) {
      return res.text().then(function (text) {
        var body;
        try { body = JSON.parse(text); } catch (e) { body = { error: 'The server answered ' + res.status + ' with something that is not JSON.' }; }
        if (!res.ok) {
          var err = new Error((body && body.error) || ('HTTP ' + res.status));
          err.status = res.status;
          throw err;
        }
        return body;
      });
    });
  }

  /* Parents before their subagents: compare the slash-separated chain segment by segment. */
  function agentKeys(manifest) {
    return Object.keys(manifest.agents).sort(function (a, b) {
      var x = a.split('/'), y = b.split('/');
      for (var i = 0; i < Math.min(x.length, y.length); i++) {
        if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
      }
      return x.length - y.length;
    });
  }
  function depth(key) { return Math.min(key.split('/').length - 1, 3); }

  var KIND_TEXT = {
    none: 'none: only the scorers/ files',
    record: 'record: merged with the scorers/ files (config wins on a key collision)',
    'function': 'function: wins wholesale; the scorers/ files are ignored',
    unknown: 'unknown: not statically evident, so the keys below may change at run time'
  };

  function samplingText(s) {
    if (!s) return 'not set / dynamic';
    if (s.type === 'none') return 'none (always runs)';
    if (s.type === 'ratio') return 'ratio ' + s.rate + ' (' + Math.round(s.rate * 1000) / 10 + '% of runs)';
    return JSON.stringify(s);
  }

  function renderSummary() {
    var m = state.manifest, keys = agentKeys(m);
    var subs = keys.filter(function (k) { return k.indexOf('/') >= 0; }).length;
    var scorers = keys.reduce(function (n, k) { return n + Object.keys(m.agents[k].scorers).length; }, 0);
    var errors = m.diagnostics.filter(function (d) { return d.severity === 'error'; }).length;
    var warnings = m.diagnostics.length - errors;
    els.summary.textContent = plural(keys.length - subs, 'agent', 'agents') + ', ' + plural(subs, 'subagent', 'subagents') + ', ' +
      plural(scorers, 'scorer', 'scorers') + ' known at build time; ' + plural(errors, 'error', 'errors') + ', ' + plural(warnings, 'warning', 'warnings') + '.';
  }

  function agentAnchor(key) { return 'agent-' + agentKeys(state.manifest).indexOf(key); }

  function renderDiagnostics() {
    var list = state.manifest.diagnostics;
    els.diagnostics.textContent = '';
    if (list.length === 0) {
      els.diagnostics.appendChild(h('p', { class: 'clean' }, [h('span', { class: 'badge ok', text: 'OK' }), 'No diagnostics: everything compiled cleanly.']));
      return;
    }
    els.diagnostics.appendChild(h('ul', { class: 'diag-list' }, list.map(function (d) {
      var where = [];
      if (d.agent !== null && Object.prototype.hasOwnProperty.call(state.manifest.agents, d.agent)) {
        where.push(' agent ', h('a', { href: '#' + agentAnchor(d.agent) }, [code(d.agent)]));
      } else if (d.agent !== null) where.push(' agent ', code(d.agent));
      if (d.file) where.push(' in ', code(d.file));
      return h('li', { class: d.severity }, [
        h('span', { class: 'badge ' + d.severity, text: d.severity }), code(d.code), h('span', {}, where),
        h('p', { text: d.message })
      ]);
    })));
  }

  function scorerTable(agentKey, agent) {
    var keys = Object.keys(agent.scorers);
    if (keys.length === 0) return null;
    return h('table', {}, [
      h('caption', { class: 'sr-only', text: 'Scorers of ' + agentKey + ' known at build time' }),
      h('thead', {}, [h('tr', {}, ['Key', 'Source', 'File', 'Sampling', ''].map(function (t, i) {
        return h('th', { scope: 'col' }, [i === 4 ? h('span', { class: 'sr-only', text: 'Action' }) : t]);
      }))]),
      h('tbody', {}, keys.map(function (key) {
        var s = agent.scorers[key];
        var file = s.source === 'file' ? s.file : agent.config;
        return h('tr', {}, [
          h('th', { scope: 'row' }, [code(key)]),
          h('td', { class: 'nowrap', text: s.source === 'file' ? 'scorers/ file' : 'config.scorers' }),
          h('td', { class: 'file' }, [file ? code(file) : '']),
          h('td', { text: samplingText(s.sampling) }),
          h('td', {}, [tryButton(agentKey, key)])
        ]);
      }))
    ]);
  }

  function tryButton(agentKey, key) {
    return h('button', {
      type: 'button', 'aria-label': 'Try ' + key + ' of ' + agentKey, text: 'Try', 'data-focus-id': JSON.stringify(['try', agentKey, key]),
      onclick: function () { choose(agentKey, key); els.input.focus(); }
    });
  }

  function runtimeBlock(agentKey, agent) {
    var needsRuntime = agent.configScorers === 'function' || agent.configScorers === 'unknown';
    if (!needsRuntime && !runtime[agentKey]) return null;
    var parts = [];
    if (runtime[agentKey]) {
      var list = runtime[agentKey];
      parts.push(h('p', { class: 'note', text: 'At run time, config.scorers gives ' + plural(list.length, 'scorer', 'scorers') + ':' }));
      if (list.length) parts.push(h('table', {}, [
        h('caption', { class: 'sr-only', text: 'Scorers of ' + agentKey + ' resolved at run time' }),
        h('thead', {}, [h('tr', {}, ['Key', 'Scorer id', 'Sampling', ''].map(function (t, i) {
          return h('th', { scope: 'col' }, [i === 3 ? h('span', { class: 'sr-only', text: 'Action' }) : t]);
        }))]),
        h('tbody', {}, list.map(function (s) {
          return h('tr', {}, [h('th', { scope: 'row' }, [code(s.key)]), h('td', {}, [s.id ? code(s.id) : '']), h('td', { text: samplingText(s.sampling) }), h('td', {}, [tryButton(agentKey, s.key)])]);
        }))
      ]));
    } else if (runtimeErrors[agentKey]) {
      parts.push(h('p', { class: 'error-box', role: 'alert', text: runtimeErrors[agentKey] }));
    }
    parts.push(h('p', {}, [h('button', {
      type: 'button', text: runtime[agentKey] ? 'Resolve again' : 'Resolve at run time',
      'aria-label': (runtime[agentKey] ? 'Resolve again' : 'Resolve at run time') + ': ' + agentKey, 'data-focus-id': JSON.stringify(['resolve', agentKey]),
      onclick: function () { resolveRuntime(agentKey, true); }
    })]));
    return h('div', {}, parts);
  }

  /* Re-rendering keeps keyboard focus on the same button (by its data-focus-id), if it still exists. */
  function renderAgents(changed) {
    var active = document.activeElement;
    var focusId = active && els.agents.contains(active) ? active.getAttribute('data-focus-id') : null;
    drawAgents(changed);
    if (focusId) {
      var same = Array.prototype.filter.call(els.agents.querySelectorAll('[data-focus-id]'), function (el) { return el.getAttribute('data-focus-id') === focusId; });
      if (same.length) same[0].focus();
    }
  }

  function drawAgents(changed) {
    var m = state.manifest, keys = agentKeys(m);
    els.agents.textContent = '';
    if (keys.length === 0) {
      els.agents.appendChild(h('p', { class: 'note', text: 'No agent folders found. Create src/mastra/agents/<name>/scorers/<key>.ts (or set the agentsDir option).' }));
      return;
    }
    keys.forEach(function (key, index) {
      var a = m.agents[key], d = depth(key), headingId = 'agent-' + index + '-h';
      var own = m.diagnostics.filter(function (x) { return x.agent === key; }), count = own.length;
      var worst = own.some(function (x) { return x.severity === 'error'; }) ? 'error' : 'warning';
      var n = Object.keys(a.scorers).length;
      els.agents.appendChild(h('article', { class: 'agent' + (changed && changed[key] ? ' changed' : ''), id: 'agent-' + index, 'data-depth': d, 'aria-labelledby': headingId, 'data-agent': key }, [
        h('h3', { id: headingId }, [
          d > 0 ? h('span', { class: 'badge plain', text: 'subagent' }) : null,
          code(key),
          count ? h('span', { class: 'badge ' + worst, text: plural(count, 'diagnostic', 'diagnostics') }) : null
        ]),
        h('dl', { class: 'meta' }, [
          h('dt', { text: 'Folder' }), h('dd', {}, [code(a.dir)]),
          h('dt', { text: 'Config' }), h('dd', {}, [a.config ? code(a.config) : 'none']),
          h('dt', { text: 'config.scorers' }), h('dd', { text: KIND_TEXT[a.configScorers] || a.configScorers })
        ]),
        n === 0 && a.configScorers !== 'function' ? h('p', { class: 'note', text: 'No scorers.' }) : null,
        scorerTable(key, a),
        runtimeBlock(key, a)
      ]));
    });
  }

  function scorerChoices(agentKey) {
    if (runtime[agentKey]) return runtime[agentKey].map(function (s) { return s.key; });
    var a = state.manifest.agents[agentKey];
    return a ? Object.keys(a.scorers) : [];
  }

  function fillAgentSelect() {
    var keep = els.agent.value, keys = agentKeys(state.manifest);
    els.agent.textContent = '';
    keys.forEach(function (k) { els.agent.appendChild(h('option', { value: k, text: k })); });
    if (keys.indexOf(keep) >= 0) els.agent.value = keep;
    fillScorerSelect();
  }

  function fillScorerSelect(prefer) {
    var agentKey = els.agent.value, keep = prefer || els.scorer.value;
    var keys = agentKey ? scorerChoices(agentKey) : [];
    var a = state.manifest.agents[agentKey];
    els.scorer.textContent = '';
    keys.forEach(function (k) { els.scorer.appendChild(h('option', { value: k, text: k })); });
    if (keys.indexOf(keep) >= 0) els.scorer.value = keep;
    var note = '';
    if (!agentKey) note = 'No agents yet.';
    else if (pending[agentKey]) note = 'Resolving config.scorers at run time…';
    else if (runtimeErrors[agentKey] && !runtime[agentKey]) note = runtimeErrors[agentKey];
    else if (keys.length === 0) note = 'This agent has no scorers.';
    else if (a && !runtime[agentKey] && a.configScorers === 'unknown') note = 'Keys known at build time; more may exist at run time.';
    els.scorerNote.textContent = note;
    els.scorer.disabled = keys.length === 0;
    els.run.disabled = keys.length === 0 || els.form.getAttribute('aria-busy') === 'true';
    if (agentKey && a && !runtime[agentKey] && !pending[agentKey] && !runtimeErrors[agentKey] &&
        (a.configScorers === 'function' || a.configScorers === 'unknown')) resolveRuntime(agentKey, false);
  }

  function choose(agentKey, key) {
    els.agent.value = agentKey;
    fillScorerSelect(key);
  }

  /* The request context as an object, or undefined when the field is empty; throws when it is not a JSON object. */
  function contextValue() {
    var text = els.context.value.trim();
    if (!text) return undefined;
    var value;
    try { value = JSON.parse(text); } catch (e) { throw new Error('the request context is not valid JSON: ' + e.message); }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('the request context must be a JSON object');
    return value;
  }

  function resolveRuntime(agentKey, fromButton) {
    var context;
    try { context = contextValue(); } catch (e) {
      runtimeErrors[agentKey] = 'Not resolved: ' + e.message;
      renderAgents();
      if (els.agent.value === agentKey) els.scorerNote.textContent = runtimeErrors[agentKey];
      return;
    }
    pending[agentKey] = true;
    if (els.agent.value === agentKey) els.scorerNote.textContent = 'Resolving config.scorers at run time…';
    var query = 'agent=' + encodeURIComponent(agentKey) + (context ? '&requestContext=' + encodeURIComponent(JSON.stringify(context)) : '');
    request('api/scorers?' + query).then(function (body) {
      runtime[agentKey] = body.scorers;
      delete runtimeErrors[agentKey];
    }, function (err) {
      runtimeErrors[agentKey] = err.message;
    }).then(function () {
      delete pending[agentKey];
      renderAgents();
      if (els.agent.value === agentKey) fillScorerSelect();
      if (fromButton) els.status.textContent = runtime[agentKey] ? 'Resolved ' + plural(runtime[agentKey].length, 'scorer', 'scorers') + ' of ' + agentKey + ' at run time.' : 'Could not resolve ' + agentKey + '.';
    });
  }

  function render(next, changed) {
    state = next;
    runtime = Object.create(null);
    runtimeErrors = Object.create(null);
    renderSummary();
    renderDiagnostics();
    renderAgents(changed);
    fillAgentSelect();
  }

  /* What changed between two manifests, in words, and which agents to highlight. */
  function difference(prev, next) {
    if (!prev) return null;
    var words = [], changed = Object.create(null);
    var before = prev.manifest.agents, after = next.manifest.agents;
    Object.keys(after).forEach(function (k) {
      if (!Object.prototype.hasOwnProperty.call(before, k)) { words.push('agent ' + k + ' added'); changed[k] = true; return; }
      var b = Object.keys(before[k].scorers), a = Object.keys(after[k].scorers);
      a.forEach(function (s) { if (b.indexOf(s) < 0) { words.push('scorer ' + k + '/' + s + ' added'); changed[k] = true; } });
      b.forEach(function (s) { if (a.indexOf(s) < 0) { words.push('scorer ' + k + '/' + s + ' removed'); changed[k] = true; } });
      if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) changed[k] = true;
    });
    Object.keys(before).forEach(function (k) { if (!Object.prototype.hasOwnProperty.call(after, k)) words.push('agent ' + k + ' removed'); });
    var dBefore = prev.manifest.diagnostics.length, dAfter = next.manifest.diagnostics.length;
    if (dBefore !== dAfter) words.push(plural(dAfter, 'diagnostic', 'diagnostics') + ' now');
    return { text: words.length ? 'Updated: ' + words.join('; ') + '.' : 'Updated.', changed: changed };
  }

  function connect() {
    if (!window.EventSource) { els.live.textContent = 'Reload to see changes'; return; }
    var source = new EventSource('api/events' + (state ? '?since=' + encodeURIComponent(state.revision) : ''));
    source.addEventListener('open', function () { els.live.textContent = 'Live'; els.live.setAttribute('data-on', 'true'); });
    source.addEventListener('error', function () { els.live.textContent = 'Reconnecting…'; els.live.setAttribute('data-on', 'false'); });
    source.addEventListener('state', function (event) {
      var next;
      try { next = JSON.parse(event.data); } catch (e) { return; }
      if (!next || !next.manifest || (state && next.revision === state.revision)) return;
      var diff = difference(state, next);
      render(next, diff && diff.changed);
      if (diff) els.status.textContent = diff.text;
    });
  }

  /* Input and output as Mastra hands them to an agent's scorers, as plain strings, or as JSON. */
  function message(role, text, n) {
    return { id: 'inspector-' + role + '-' + n, role: role, content: { format: 2, parts: [{ type: 'text', text: text }], content: text } };
  }
  function payloadValues() {
    var mode = (els.form.querySelector('input[name="as"]:checked') || {}).value || 'messages';
    var input = els.input.value, output = els.output.value;
    if (mode === 'text') return { input: input, output: output };
    if (mode === 'json') {
      var parsed = {};
      [['input', input], ['output', output]].forEach(function (pair) {
        try { parsed[pair[0]] = JSON.parse(pair[1]); } catch (e) { throw new Error(pair[0] + ' is not valid JSON: ' + e.message); }
      });
      return parsed;
    }
    return {
      input: { inputMessages: [message('user', input, 1)], rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} },
      output: [message('assistant', output, 2)]
    };
  }

  function show(value) { return typeof value === 'string' ? value : JSON.stringify(value, null, 2); }

  function verdictTable(statements, results) {
    var n = Math.max(statements.length, results.length);
    var rows = [];
    for (var i = 0; i < n; i++) {
      var r = results[i] || {}, verdict = typeof r.result === 'string' ? r.result : '';
      var cls = verdict === 'yes' || verdict === 'unsure' ? verdict : 'no';
      rows.push(h('tr', {}, [
        h('td', { text: String(i + 1) }),
        h('td', { text: i < statements.length ? String(statements[i]) : '' }),
        h('td', {}, [verdict ? h('span', { class: 'badge ' + cls, text: verdict }) : '']),
        h('td', { text: r.reason ? String(r.reason) : '' })
      ]));
    }
    return h('table', {}, [
      h('caption', { class: 'sr-only', text: 'Statements and verdicts' }),
      h('thead', {}, [h('tr', {}, ['#', 'Statement', 'Verdict', 'Why'].map(function (t) { return h('th', { scope: 'col', text: t }); }))]),
      h('tbody', {}, rows)
    ]);
  }

  function renderResult(body) {
    var steps = body.steps || {};
    var statements = steps.preprocess && Array.isArray(steps.preprocess.statements) ? steps.preprocess.statements : null;
    var results = steps.analyze && Array.isArray(steps.analyze.results) ? steps.analyze.results : null;
    var parts = [h('h3', {}, ['Result: ', code(body.agent), ' › ', code(body.key)])];
    if (body.notScorable) {
      parts.push(h('p', { class: 'reason', text: 'Not scorable (step ' + body.notScorable.step + ')' + (body.notScorable.reason ? ': ' + show(body.notScorable.reason) : '') }));
    } else {
      parts.push(h('p', { class: 'score', id: 'score', text: body.score === null ? '—' : String(body.score) }));
    }
    if (body.reason !== null && body.reason !== undefined) parts.push(h('p', { class: 'reason', id: 'reason', text: show(body.reason) }));
    if (statements || results) {
      parts.push(h('h4', { text: 'Statements and verdicts' }), verdictTable(statements || [], results || []));
    }
    [['preprocess', 'Preprocess step result'], ['analyze', 'Analyze step result']].forEach(function (p) {
      if (steps[p[0]] !== null && steps[p[0]] !== undefined) parts.push(h('details', {}, [h('summary', { text: p[1] }), h('pre', { text: show(steps[p[0]]) })]));
    });
    var prompts = body.prompts || {};
    var promptKeys = Object.keys(prompts).filter(function (k) { return prompts[k]; });
    if (promptKeys.length) parts.push(h('details', {}, [h('summary', { text: 'Judge prompts' })].concat(promptKeys.map(function (k) {
      return h('div', {}, [h('h4', { text: k }), h('pre', { text: prompts[k] })]);
    }))));
    var meta = ['scorer id ' + ((body.scorer && body.scorer.id) || '?')];
    if (typeof body.durationMs === 'number') meta.push(body.durationMs + ' ms');
    parts.push(h('p', { class: 'note', text: meta.join(' · ') }));
    els.result.textContent = '';
    parts.forEach(function (p) { els.result.appendChild(p); });
  }

  function renderError(text) {
    els.result.textContent = '';
    els.result.appendChild(h('p', { class: 'error-box', id: 'run-error', text: text }));
  }

  els.agent.addEventListener('change', function () { fillScorerSelect(); });
  /* The function form may give other scorers for another request context: resolve again. */
  els.context.addEventListener('change', function () {
    var agentKey = els.agent.value, a = state && state.manifest.agents[agentKey];
    var stale = Object.keys(runtime).concat(Object.keys(runtimeErrors));
    stale.forEach(function (k) { delete runtime[k]; delete runtimeErrors[k]; });
    /* Leaving the field fires 'change' while focus moves on (perhaps to a button in the list): redraw
       after the move, so the redraw can put focus back on that button. */
    if (stale.length) setTimeout(renderAgents, 0);
    if (a && (a.configScorers === 'function' || a.configScorers === 'unknown')) resolveRuntime(agentKey, false);
  });
  els.form.addEventListener('submit', function (event) {
    event.preventDefault();
    var agentKey = els.agent.value, key = els.scorer.value, values, context;
    if (!agentKey || !key) return;
    try { values = payloadValues(); context = contextValue(); } catch (e) {
      els.status.textContent = 'Not run: ' + e.message;
      renderError(e.message);
      return;
    }
    els.form.setAttribute('aria-busy', 'true');
    els.run.disabled = true;
    els.status.textContent = 'Running ' + key + ' of ' + agentKey + '…';
    request('api/run', {
      method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ agent: agentKey, key: key, input: values.input, output: values.output, requestContext: context })
    }).then(function (body) {
      renderResult(body);
      els.status.textContent = body.notScorable ? key + ': not scorable.' : 'Score ' + (body.score === null ? 'none' : body.score) + ' for ' + key + ' of ' + agentKey + '.';
    }, function (err) {
      renderError(err.message);
      els.status.textContent = 'Error: ' + err.message;
    }).then(function () {
      els.form.removeAttribute('aria-busy');
      fillScorerSelect();
    });
  });

  request('api/state').then(function (body) {
    render(body);
    connect();
  }, function (err) {
    els.summary.textContent = 'Could not load the registry state: ' + err.message;
    connect();
  });
})();
`;

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>agent-scorers inspector</title>
<link rel="icon" href="data:,">
<style nonce="%NONCE%">${CSS}</style>
</head>
<body>
<a class="skip" href="#try">Skip to “Try a scorer”</a>
<header class="top">
  <h1>agent-scorers <span>inspector</span></h1>
  <p id="summary">Loading the registry…</p>
  <p id="live" data-on="false">Connecting…</p>
</header>
<main>
  <div class="layout">
    <div>
      <section aria-labelledby="diagnostics-h">
        <h2 id="diagnostics-h">Diagnostics</h2>
        <div id="diagnostics"></div>
      </section>
      <section aria-labelledby="agents-h">
        <h2 id="agents-h">Agents and their scorers</h2>
        <div id="agents"></div>
      </section>
    </div>
    <section id="try" aria-labelledby="try-h" tabindex="-1">
      <h2 id="try-h">Try a scorer</h2>
      <form id="run-form" novalidate>
        <label for="agent">Agent</label>
        <select id="agent" name="agent"></select>
        <label for="scorer">Scorer</label>
        <select id="scorer" name="scorer" aria-describedby="scorer-note"></select>
        <p id="scorer-note" class="hint"></p>
        <label for="input">Input <span class="hint">(the user's message)</span></label>
        <textarea id="input" name="input" rows="3" placeholder="What will the weather be in Paris tomorrow?"></textarea>
        <label for="output">Output <span class="hint">(the agent's answer)</span></label>
        <textarea id="output" name="output" rows="5" placeholder="Tomorrow Paris will be sunny, around 21 °C."></textarea>
        <label for="context">Request context <span class="hint">(optional JSON object, passed as a Map like Mastra's RequestContext)</span></label>
        <textarea id="context" name="context" rows="2" placeholder='{"tier": "premium"}'></textarea>
        <fieldset>
          <legend>Send as</legend>
          <label><input type="radio" name="as" value="messages" checked> Agent messages, as Mastra passes them</label>
          <label><input type="radio" name="as" value="text"> Plain text</label>
          <label><input type="radio" name="as" value="json"> JSON</label>
        </fieldset>
        <div class="actions"><button id="run" class="primary" type="submit">Run scorer</button></div>
      </form>
      <p id="result-status" role="status" aria-live="polite" aria-atomic="true"></p>
      <div id="result"></div>
    </section>
  </div>
</main>
<footer>Served by the Vite dev server only. Scorers run on the server with your environment (a real judge model may cost money); sampling is not applied to runs started here.</footer>
<script nonce="%NONCE%">${SCRIPT}</script>
</body>
</html>
`;

/** The page, with `nonce` on its one style and one script element (the server's CSP allows only those). */
export function inspectorPage(nonce: string): string {
  return HTML.replaceAll('%NONCE%', nonce);
}
