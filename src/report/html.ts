/**
 * The HTML report: one self-contained page. The verdict and the scorers (means, gates,
 * thresholds, histograms) are rendered here; the items travel as JSON in a data block and the
 * page's script renders them a page at a time. The Content-Security-Policy allows only this
 * page's own style and script (by hash) and no request of any kind.
 */
import { createHash } from 'node:crypto';
import type { ComparisonDetail } from './compare.js';
import type { ReadResult, ReportShard } from './result.js';
import { shardLabel } from './shards.js';
import { asText, formatDifference, formatScore, formatThreshold, itemMisses, preview, runOf, scorerViews, sortedItems, valueOf, type ScorerView } from './model.js';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';

/** Text and attribute values: every user string goes through this. */
export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * JSON inside `<script type="application/json">`: `<`, `>` and `&` as `\u` escapes, so no
 * `</script>` or `<!--` can close or change the block; JSON.parse reads them back unchanged.
 */
export const jsonForScript = (value: unknown): string =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

export interface HtmlOptions {
  title: string;
  /** Shown under the title; `null` for none (a report that must not change between runs). */
  generatedAt: Date | null;
  /** The comparison with a baseline run, shown first. */
  comparison?: ComparisonDetail;
  /** The baseline's shard record, when the baseline is a shard (then the same shard as the result). */
  baselineShard?: ReportShard;
}

const VERDICTS = {
  passed: { mark: '✓', text: 'Passed', note: 'Every gate scored 1 and every threshold was met.' },
  scored: { mark: '!', text: 'Scored', note: 'Every gate passed, but at least one threshold was missed.' },
  failed: { mark: '✗', text: 'Failed', note: 'At least one gate averaged below 1.' },
  none: { mark: '–', text: 'No verdict', note: 'No gate or threshold gave a number, so the run has scores but no verdict.' },
} as const;

export function renderHtml(result: ReadResult, { title, generatedAt, comparison, baselineShard }: HtmlOptions): string {
  const views = scorerViews(result);
  const items = sortedItems(result);
  const verdict = VERDICTS[result.verdict ?? 'none'];
  const verdictClass = `v-${result.verdict ?? 'none'}`;
  const failingGates = views.filter((v) => v.gate && v.gatePassed === false).map((v) => v.label);
  const missedThresholds = views.filter((v) => v.thresholdPassed === false).map((v) => v.label);
  const detail = [
    failingGates.length > 0 ? `Failed gates: ${failingGates.join(', ')}.` : '',
    missedThresholds.length > 0 ? `Missed thresholds: ${missedThresholds.join(', ')}.` : '',
  ].filter(Boolean).join(' ');

  const baselineViews = comparison ? views.map((v) => comparison.slots.get(v.key)?.before) : undefined;
  // The items the comparison counts as worse (on any scorer) show the baseline's output beside their own.
  const worse = new Set(comparison?.comparison.worse.map((w) => w.item));
  const data = {
    scorers: views.map((v) => {
      const t = v.threshold;
      return {
        id: v.label,
        gate: v.gate,
        min: t === null ? null : typeof t === 'number' ? t : (t.min ?? null),
        max: t === null || typeof t === 'number' ? null : (t.max ?? null),
        turn: v.turn,
        // Where lower is better, a rise is what got worse.
        ...(comparison ? { lower: comparison.slots.get(v.key)?.direction === 'lower-is-better' } : {}),
        step: v.slot.group === 'steps' ? v.slot.step : null,
      };
    }),
    baseline: comparison !== undefined,
    // [index, input, input preview, output, ground truth, runs, turns, identity, baseline output,
    // steps]; a run is [score, reason, cached 1/0/null, baseline score or null]; a turn is [input,
    // reply]; the baseline output is there only for an item that got worse, else null; a step is
    // [step id, status, input, output, error or null], or steps is null.
    items: items.map((item) => {
      const old = comparison?.baselineItems.get(item.id);
      return [
        item.index,
        asText(item.input),
        preview(item.input, 120),
        asText(item.output),
        item.groundTruth === undefined ? null : asText(item.groundTruth),
        views.map((v, k) => {
          const run = runOf(item, v);
          if (run === undefined) return null;
          const reason = run.error ? `Threw: ${run.error}${run.reason ? `\n${run.reason}` : ''}` : (run.reason ?? null);
          const was = old && baselineViews?.[k] ? valueOf(runOf(old, baselineViews[k]!)) : undefined;
          const entry: unknown[] = [run.notScorable ? null : run.score, reason, run.cached === true ? 1 : run.cached === false ? 0 : null];
          if (comparison) entry.push(was ?? null);
          return entry;
        }),
        item.turns === undefined ? null : item.turns.map((turn) => [asText(turn.input), asText(turn.output)]),
        item.id,
        old !== undefined && worse.has(item.id) ? asText(old.output) : null,
        item.stepResults === undefined
          ? null
          : Object.entries(item.stepResults).map(([step, run]) => [step, run.status, asText(run.input), asText(run.output), run.error ?? null]),
      ];
    }),
  };

  const sortOptions = ['<option value="index">Dataset order</option>']
    .concat(views.flatMap((v, k) => [
      `<option value="${k}:asc">${escapeHtml(v.label)}: lowest first</option>`,
      `<option value="${k}:desc">${escapeHtml(v.label)}: highest first</option>`,
    ]))
    .join('');

  const itemsSection = result.items === undefined
    ? '<p class="empty">This result carries no per-item results, so only the scorers are shown.</p>'
    : `<div class="toolbar" role="group" aria-label="Item controls">
<button type="button" id="failing" aria-pressed="false">Failing only</button>
<label>Sort <select id="sort">${sortOptions}</select></label>
<label>Search <input type="search" id="search" placeholder="input, output, reason"></label>
<button type="button" id="expand">Expand page</button>
<button type="button" id="collapse">Collapse page</button>
</div>
<p id="status" class="status" role="status" aria-live="polite"></p>
<div id="items"></div>
<nav class="pager" aria-label="Item pages">
<button type="button" id="prev">Previous page</button>
<span id="page-label"></span>
<button type="button" id="next">Next page</button>
</nav>
<noscript><p class="empty">The item list needs JavaScript; the JUnit file lists every item as well.</p></noscript>`;

  const script = result.items === undefined ? '' : PAGE_SCRIPT;
  const csp = [
    "default-src 'none'",
    `style-src ${sha256(PAGE_STYLE)}`,
    script ? `script-src ${sha256(script)}` : "script-src 'none'",
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');

  const itemCount = result.summary.totalItems;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(`${comparison ? `${comparisonWord(comparison)}, ` : ''}${verdict.text}: ${title}`)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<a class="skip" href="#items-heading">Skip to items</a>
<main>
<h1>${escapeHtml(title)}</h1>
<p class="meta">${itemCount} ${itemCount === 1 ? 'item' : 'items'}, ${views.length} ${views.length === 1 ? 'scorer' : 'scorers'}${generatedAt ? `, generated ${escapeHtml(generatedAt.toISOString())}` : ''}</p>
${shardNotice(result, comparison === undefined ? undefined : baselineShard)}
${comparison ? comparisonSection(comparison, items.length) : ''}
<section class="verdict ${verdictClass}" aria-labelledby="verdict-label">
<span class="mark" aria-hidden="true">${verdict.mark}</span>
<div><strong id="verdict-label">${verdict.text}</strong><p>${escapeHtml(`${verdict.note}${detail ? ` ${detail}` : ''}`)}</p></div>
</section>
${turnSection(result)}
<h2>Scorers</h2>
<div class="scorers">
${views.map((v, k) => scorerCard(v, k, result.items !== undefined)).join('\n')}
</div>
<h2 id="items-heading" tabindex="-1">Items</h2>
${itemsSection}
</main>
<script type="application/json" id="report-data">${jsonForScript(data)}</script>
${script ? `<script>${script}</script>` : ''}
</body>
</html>
`;
}

/** A shard's page says so first: which shard of how many, and that the whole run is its merge. */
function shardNotice(result: ReadResult, baselineShard: ReportShard | undefined): string {
  const shard = result.shard;
  if (shard === undefined) return '';
  const compared = baselineShard === undefined ? '' : ` It is compared with the same shard of the baseline, ${shardLabel(baselineShard)}, so only these items are compared.`;
  return `<p class="shard" id="shard">${escapeHtml(
    `This page covers ${shardLabel(shard)}: ${result.summary.totalItems} of the run's items, not the whole run. The run's result is its ${shard.count} shards merged with agent-scorers report merge.${compared}`,
  )}</p>`;
}

/** `1 regressed, 1 inconclusive` / `2 improved` / `Unchanged`: the comparison in a word or two. */
function comparisonWord(detail: ComparisonDetail): string {
  const count = (status: string) => detail.comparison.scorers.filter((s) => s.status === status).length;
  const told = (['regressed', 'removed', 'inconclusive'] as const).filter((status) => count(status) > 0).map((status) => `${count(status)} ${status}`);
  if (told.length > 0) return told.join(', ');
  if (count('improved') > 0) return `${count('improved')} improved`;
  return detail.shared < 2 ? 'Not compared' : 'Unchanged';
}

const STATUS_MARK = { regressed: '▼', improved: '▲', unchanged: '=', inconclusive: '?', added: '+', removed: '−' } as const;

/** The comparison with the baseline: a table per scorer, then the items that got worse (the worst 50). */
function comparisonSection(detail: ComparisonDetail, items: number): string {
  const { comparison, slots, shared, tolerance } = detail;
  const regressed = comparison.scorers.filter((s) => s.status === 'regressed');
  const improved = comparison.scorers.filter((s) => s.status === 'improved');
  const removed = comparison.scorers.filter((s) => s.status === 'removed');
  const inconclusive = comparison.scorers.filter((s) => s.status === 'inconclusive');
  const label = (id: string) => `${slots.get(id)?.label ?? id}${slots.get(id)?.gate ? ' (gate)' : ''}${slots.get(id)?.direction === 'lower-is-better' ? ' (lower is better)' : ''}`;
  const scorersWord = (n: number) => `${n} ${n === 1 ? 'scorer' : 'scorers'}`;
  const inBoth = `${shared} ${shared === 1 ? 'item' : 'items'} in both runs`;
  const said = [
    regressed.length > 0 ? `${scorersWord(regressed.length)} regressed: ${regressed.map((s) => label(s.id)).join(', ')}.` : '',
    removed.length > 0 ? `${scorersWord(removed.length)} removed (in the baseline only, no longer checked): ${removed.map((s) => label(s.id)).join(', ')}.` : '',
    inconclusive.length > 0
      ? `${scorersWord(inconclusive.length)} inconclusive over ${inBoth}: ${inconclusive.map((s) => label(s.id)).join(', ')}; a change for the worse beyond the tolerance can be neither shown nor ruled out.`
      : '',
  ].filter(Boolean);
  const headline = said.length > 0
    ? said.join(' ')
    : improved.length > 0
      ? `No scorer regressed over ${inBoth}; ${improved.length} improved: ${improved.map((s) => label(s.id)).join(', ')}.`
      : `No scorer regressed or improved beyond the tolerance over ${inBoth}.`;
  const rows = comparison.scorers.map((s) => {
    const cell = (value: number | null) => (value === null ? '—' : formatScore(value));
    const interval = s.interval === null ? '—' : `${formatDifference(s.interval[0])} to ${formatDifference(s.interval[1])}`;
    const pairs = slots.get(s.id)?.pairs ?? 0;
    return `<tr class="s-${s.status}"><th scope="row"><span class="sid">${escapeHtml(label(s.id))}</span></th><td>${cell(s.before)}</td><td>${cell(s.after)}</td><td>${s.difference === null ? '—' : formatDifference(s.difference)}</td><td>${interval}</td><td>${pairs}</td><td><span class="badge st-${s.status}"><span aria-hidden="true">${STATUS_MARK[s.status]}</span> ${s.status}</span></td></tr>`;
  });
  const shown = comparison.worse.slice(0, 50);
  const worse = shown.length === 0
    ? '<p class="empty">No item scored lower than in the baseline.</p>'
    : `<table class="worse"><caption>Items that got worse, largest drop first${comparison.worse.length > shown.length ? ` (the first ${shown.length} of ${comparison.worse.length}; sort the items below by a scorer for the rest)` : ''}</caption>
<thead><tr><th scope="col">Item</th><th scope="col">Scorer</th><th scope="col">Before</th><th scope="col">After</th><th scope="col">Input</th></tr></thead>
<tbody>${shown.map((w) => {
      const old = detail.baselineItems.get(w.item);
      return `<tr><td><code>${escapeHtml(w.item)}</code></td><td>${escapeHtml(label(w.scorer))}</td><td>${formatScore(w.before)}</td><td class="bad">${formatScore(w.after)}</td><td>${escapeHtml(preview(old?.input, 80))}</td></tr>`;
    }).join('\n')}</tbody></table>`;
  const onlyIn = [
    comparison.onlyInResult > 0 ? `${comparison.onlyInResult} only in this run` : '',
    comparison.onlyInBaseline > 0 ? `${comparison.onlyInBaseline} only in the baseline` : '',
  ].filter(Boolean).join(', ');
  const state = regressed.length > 0 || removed.length > 0 ? 'regressed' : inconclusive.length > 0 ? 'inconclusive' : improved.length > 0 ? 'improved' : 'unchanged';
  const warnings = comparison.warnings.map((w) => `<p class="warning" role="note"><strong>Warning:</strong> ${escapeHtml(w)}</p>`).join('\n');
  return `<section class="comparison c-${state}" aria-labelledby="comparison-heading">
<h2 id="comparison-heading">Compared with the baseline</h2>
${warnings ? `${warnings}\n` : ''}<p class="headline">${escapeHtml(headline)}</p>
<p class="meta">${shared} ${shared === 1 ? 'item' : 'items'} in both runs${onlyIn ? ` (${onlyIn})` : ''}, of ${items} in this run. Difference: this run minus the baseline, per item, with its 95% interval (paired t); a scorer regressed when the whole interval lies more than ${formatScore(tolerance)} on the worse side of 0 (below it; above it where lower is better), and is inconclusive when the interval reaches there without lying wholly there.</p>
<table class="compare"><thead><tr><th scope="col">Scorer</th><th scope="col">Before</th><th scope="col">After</th><th scope="col">Difference</th><th scope="col">95% interval</th><th scope="col">Items</th><th scope="col">Status</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
${worse}
</section>`;
}

/** Per-turn gates, thresholds and means (items with `turns`), one row per turn and assertion. */
function turnSection(result: ReadResult): string {
  const turns = result.turnResults ?? [];
  if (turns.length === 0) return '';
  const rows: string[] = [];
  for (const turn of turns) {
    const cells = (id: string, kind: string, mean: number | null, outcome: string) =>
      `<tr><th scope="row">${turn.index}</th><td><span class="sid">${escapeHtml(id)}</span></td><td>${kind}</td><td>${mean === null ? '—' : formatScore(mean)}</td><td>${outcome}</td></tr>`;
    const badge = (passed: boolean) => `<span class="badge ${passed ? 'ok' : 'bad'}">${passed ? 'passed' : 'failed'}</span>`;
    for (const g of turn.gateResults ?? []) rows.push(cells(g.id, 'gate (must average 1)', typeof g.score === 'number' ? g.score : null, badge(g.passed)));
    for (const t of turn.thresholdResults ?? []) {
      rows.push(cells(t.id, `threshold ${escapeHtml(formatThreshold(t.threshold))}`, typeof t.averageScore === 'number' ? t.averageScore : null, badge(t.passed)));
    }
    const asserted = new Set((turn.thresholdResults ?? []).map((t) => t.id));
    for (const [id, mean] of Object.entries(turn.scores ?? {})) if (!asserted.has(id)) rows.push(cells(id, 'tracked', typeof mean === 'number' ? mean : null, '—'));
  }
  return `<h2>Turns</h2>
<table class="turns"><caption>Each turn's own gates and scorers, averaged over the items with turns</caption>
<thead><tr><th scope="col">Turn</th><th scope="col">Scorer</th><th scope="col">Role</th><th scope="col">Mean</th><th scope="col">Outcome</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`;
}

function scorerCard(view: ScorerView, position: number, hasItems: boolean): string {
  const status = (passed: boolean | null, what: string) =>
    passed === null ? '' : ` <span class="badge ${passed ? 'ok' : 'bad'}">${what} ${passed ? 'passed' : 'failed'}</span>`;
  const role = view.gate ? 'gate (must average 1)' : view.threshold !== null ? 'threshold' : 'tracked (no threshold)';
  const judge = view.cached + view.live === 0 ? '' : `<dt>Judge</dt><dd>${view.cached} cached, ${view.live} live</dd>`;
  // Worst first: lowest, except for a scorer where only a maximum is set (high is bad there).
  const worstDesc = typeof view.threshold === 'object' && view.threshold !== null && view.threshold.min === undefined && view.threshold.max !== undefined;
  const order = worstDesc ? 'highest' : 'lowest';
  const sortButtons = hasItems
    ? `<button type="button" data-sort="${position}:${worstDesc ? 'desc' : 'asc'}" aria-label="${escapeHtml(`Sort items by ${view.label}, ${order} first`)}">Worst first (${order})</button>`
    : '';
  return `<section class="scorer" aria-labelledby="scorer-${position}">
<h3 id="scorer-${position}"><span class="sid">${escapeHtml(view.label)}</span>${status(view.gatePassed, 'gate')}${status(view.thresholdPassed, 'threshold')}</h3>
<dl>
<dt>Mean</dt><dd>${view.mean === null ? '—' : formatScore(view.mean)}</dd>
<dt>Role</dt><dd>${role}</dd>
<dt>Threshold</dt><dd>${view.threshold === null ? (view.gate ? '= 1' : '—') : escapeHtml(formatThreshold(view.threshold))}</dd>
<dt>Scored</dt><dd>${view.scores.length} ${view.scores.length === 1 ? 'item' : 'items'}</dd>
<dt>Not scorable</dt><dd>${view.notScorable}</dd>
${judge}
</dl>
${histogram(view)}
${sortButtons}
</section>`;
}

/**
 * Ten bins over [0, 1] when every score lies there (the usual scale), else over [min, max]; the
 * last bin includes its upper edge. Bins whose items all miss the gate or threshold are drawn in
 * the failure colour. The counts are in the aria-label, which is what a screen reader reads.
 */
export function histogram(view: ScorerView): string {
  const scores = view.scores;
  if (scores.length === 0) return `<p class="empty">No scorable run to chart${view.notScorable ? ` (${view.notScorable} not scorable)` : ''}.</p>`;
  const BINS = 10;
  let lo = 0;
  let hi = 1;
  if (scores.some((s) => s < 0 || s > 1)) {
    lo = Math.min(...scores);
    hi = Math.max(...scores);
    if (hi === lo) hi = lo + 1;
  }
  const width = (hi - lo) / BINS;
  const counts = new Array<number>(BINS).fill(0);
  for (const s of scores) counts[Math.min(BINS - 1, Math.max(0, Math.floor((s - lo) / width)))]++;
  const edge = (i: number) => formatScore(lo + i * width);
  const top = Math.max(...counts);
  const W = 300;
  const H = 96;
  const chartTop = 16;
  const chartBottom = 74;
  const barW = W / BINS;
  const x = (score: number) => (((score - lo) / (hi - lo)) * W).toFixed(1);
  const bars = counts.map((count, i) => {
    const h = count === 0 ? 0 : Math.max(2, Math.round((count / top) * (chartBottom - chartTop)));
    // The last bin holds its upper edge (a gate's 1), the others stop just short of theirs.
    const upper = i === BINS - 1 ? hi : lo + (i + 1) * width - width * 1e-6;
    const low = itemMisses(view, lo + i * width) && itemMisses(view, upper);
    return `<rect class="b${low ? ' low' : ''}" x="${(i * barW + 1).toFixed(1)}" y="${chartBottom - h}" width="${(barW - 2).toFixed(1)}" height="${h}"></rect>`;
  });
  // The threshold's bounds as dashed lines, where they fall inside the chart.
  const t = view.threshold;
  const bounds = t === null ? [] : typeof t === 'number' ? [t] : [t.min, t.max].filter((b): b is number => b !== undefined);
  const marks = bounds
    .filter((b) => b >= lo && b <= hi)
    .map((b) => `<line class="t" x1="${x(b)}" y1="${chartTop - 4}" x2="${x(b)}" y2="${chartBottom}"></line>`);
  const labels = counts.map((count, i) => `${edge(i)} to ${edge(i + 1)}: ${count}`).join(', ');
  const label = `Distribution of ${scores.length} ${view.label} scores${view.notScorable ? ` (${view.notScorable} not scorable, not shown)` : ''}. ${labels}.`;
  return `<svg class="hist" role="img" aria-label="${escapeHtml(label)}" viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg">
<line x1="0" y1="${chartBottom + 0.5}" x2="${W}" y2="${chartBottom + 0.5}"></line>
${bars.join('')}${marks.join('')}
<text x="0" y="${H - 4}">${edge(0)}</text><text x="${W / 2}" y="${H - 4}" text-anchor="middle">${edge(BINS / 2)}</text><text x="${W}" y="${H - 4}" text-anchor="end">${edge(BINS)}</text>
<text x="0" y="10">most in one bin: ${top}</text>
</svg>`;
}
