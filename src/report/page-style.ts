/** The report page's stylesheet, inlined into the page (its CSP allows it by hash). */
export const PAGE_STYLE = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --panel: #f6f8fa;
  --pass: #116329; --pass-bg: #dafbe1; --warn: #7d4e00; --warn-bg: #fff8c5; --fail: #a40e26; --fail-bg: #ffebe9;
  --none: #424a53; --none-bg: #eaeef2; --bar: #0969da; --bar-low: #cf222e; --focus: #0969da;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --muted: #9da7b3; --line: #30363d; --panel: #161b22;
    --pass: #7ee2a8; --pass-bg: #0f2f1d; --warn: #f2cc60; --warn-bg: #33280b; --fail: #ffa198; --fail-bg: #3d1214;
    --none: #c9d1d9; --none-bg: #21262d; --bar: #58a6ff; --bar-low: #ff7b72; --focus: #58a6ff;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
main { max-width: 1100px; margin: 0 auto; padding: 24px 20px 64px; }
h1 { font-size: 1.25rem; margin: 0 0 4px; }
h2 { font-size: 1.1rem; margin: 32px 0 12px; }
.meta { color: var(--muted); margin: 0 0 16px; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 16px; top: 8px; background: var(--bg); padding: 4px 8px; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.verdict { border: 2px solid currentColor; border-radius: 10px; padding: 16px 20px; display: flex; gap: 16px; align-items: center; }
.verdict strong { font-size: 2rem; letter-spacing: 0.04em; text-transform: uppercase; }
.verdict p { margin: 0; }
.v-passed { color: var(--pass); background: var(--pass-bg); }
.v-scored { color: var(--warn); background: var(--warn-bg); }
.v-failed { color: var(--fail); background: var(--fail-bg); }
.v-none { color: var(--none); background: var(--none-bg); }
.mark { font-size: 2rem; font-weight: 700; }
.scorers { display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); gap: 12px; }
.scorer { border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; background: var(--panel); }
.scorer h3 { font-size: 1rem; margin: 0 0 6px; overflow-wrap: anywhere; }
.scorer dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 12px; margin: 0 0 8px; }
.scorer dt { color: var(--muted); }
.scorer dd { margin: 0; }
.badge { display: inline-block; border-radius: 999px; padding: 0 8px; font-size: 0.8rem; font-weight: 600; border: 1px solid currentColor; }
.ok { color: var(--pass); }
.bad { color: var(--fail); }
.neutral { color: var(--muted); }
svg.hist { width: 100%; height: auto; display: block; }
svg.hist rect.b { fill: var(--bar); }
svg.hist rect.low { fill: var(--bar-low); }
svg.hist text { fill: var(--muted); font-size: 10px; }
svg.hist line { stroke: var(--line); }
svg.hist line.t { stroke: var(--fg); stroke-dasharray: 3 3; }
button, select, input { font: inherit; color: inherit; }
button { background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 4px 10px; cursor: pointer; }
button[aria-pressed="true"] { background: var(--fg); color: var(--bg); }
button:disabled { opacity: 0.5; cursor: default; }
select, input[type="search"] { background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 4px 8px; }
.toolbar { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; margin: 0 0 12px; }
.toolbar label { display: flex; gap: 6px; align-items: center; }
.status { color: var(--muted); margin: 0 0 8px; }
details.item { border: 1px solid var(--line); border-radius: 8px; margin: 0 0 6px; background: var(--bg); }
details.item > summary { padding: 8px 12px; cursor: pointer; display: flex; flex-wrap: wrap; gap: 8px; align-items: baseline; }
details.item > summary::before { content: "▸"; color: var(--muted); }
details.item[open] > summary::before { content: "▾"; }
details.item[open] > summary { border-bottom: 1px solid var(--line); }
.idx { color: var(--muted); font-variant-numeric: tabular-nums; }
.preview { flex: 1 1 280px; overflow-wrap: anywhere; }
.chips { display: flex; flex-wrap: wrap; gap: 4px; }
.chip { font-size: 0.8rem; border: 1px solid var(--line); border-radius: 4px; padding: 0 6px; font-variant-numeric: tabular-nums; }
.chip.miss { color: var(--fail); border-color: currentColor; font-weight: 600; }
.chip.ns { color: var(--muted); font-style: italic; }
.body { padding: 8px 12px 12px; }
.body h4 { font-size: 0.85rem; margin: 8px 0 4px; color: var(--muted); text-transform: uppercase; letter-spacing: 0.04em; }
pre, td, .preview, .chip { unicode-bidi: isolate; }
td.reason { white-space: pre-wrap; }
pre { margin: 0; padding: 8px; background: var(--panel); border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 320px; overflow: auto; font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
th { color: var(--muted); font-weight: 600; }
.pager { display: flex; gap: 8px; align-items: center; margin-top: 12px; }
.empty { color: var(--muted); font-style: italic; }
.comparison { border: 2px solid var(--line); border-radius: 10px; padding: 4px 20px 16px; margin: 0 0 16px; }
.comparison h2 { margin-top: 12px; }
.comparison .headline { font-weight: 600; font-size: 1.05rem; margin: 0 0 4px; }
.c-regressed { border-color: var(--fail); }
.c-regressed .headline { color: var(--fail); }
.c-improved .headline { color: var(--pass); }
.st-regressed { color: var(--fail); }
.st-improved { color: var(--pass); }
.st-unchanged { color: var(--muted); }
.st-inconclusive, .st-removed { color: var(--warn); }
.c-inconclusive { border-color: var(--warn); }
.c-inconclusive .headline { color: var(--warn); }
.comparison .warning { color: var(--warn); background: var(--warn-bg); padding: 6px 10px; border-radius: 6px; }
tr.s-inconclusive th, tr.s-inconclusive td, tr.s-removed th, tr.s-removed td { background: var(--warn-bg); }
tr.s-regressed th, tr.s-regressed td { background: var(--fail-bg); }
table.compare td, table.worse td, table.turns td { font-variant-numeric: tabular-nums; }
table.worse, table.turns { margin-top: 12px; }
caption { text-align: left; color: var(--muted); padding: 4px 0; }
.ident { color: var(--muted); font-size: 0.85rem; margin: 0; overflow-wrap: anywhere; }
section.turn { border-left: 3px solid var(--line); padding: 0 0 4px 10px; margin: 8px 0; }
section.step { border-left: 3px solid var(--line); padding: 0 0 4px 10px; margin: 8px 0; }
.side { display: grid; grid-template-columns: repeat(auto-fit, minmax(240px, 1fr)); gap: 12px; }
.side > div { min-width: 0; }
.shard { border: 1px dashed currentColor; border-radius: 8px; padding: 8px 12px; }
section.turn h5 { margin: 6px 0 0; font-size: 0.9rem; }
`;
