/**
 * The Markdown summary of a run (and its comparison with a baseline) for a CI step summary and a
 * pull-request comment: the comparison first, then the run's verdict and scorers, then the items
 * that got worse. GitHub refuses a comment over 65,536 characters, so the text is kept within
 * `maxLength` (60,000 by default) by cutting from the least important end: the items that got
 * worse go first (the smallest drops first), then the run's scorer rows, then the comparison's
 * unchanged rows; each cut says how much it left out.
 *
 * Every string from the run (ids, inputs) goes into a code span, where Markdown, HTML and
 * @-mentions are inert.
 */
import type { ComparisonDetail, ComparisonStatus, ScorerComparison } from './compare.js';
import { formatDifference, formatScore, formatThreshold, preview, scorerViews } from './model.js';
import type { ReadResult } from './result.js';

/** The summary's limit in characters (UTF-16 code units): under GitHub's 65,536 for a comment. */
export const SUMMARY_MAX_LENGTH = 60_000;

export interface SummaryOptions {
  title: string;
  comparison?: ComparisonDetail;
  /** At most this many characters (UTF-16 code units, as GitHub counts them). */
  maxLength?: number;
}

/**
 * A code span that shows `text` literally on one line, inside a table cell too. Control characters
 * go (a NUL can make a comment unpostable), and a lone surrogate becomes U+FFFD, as a UTF-8 file would.
 */
export function code(text: string): string {
  const line = text
    .replace(/[\r\n\t\u2028\u2029]+/g, ' ')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(/\|/g, '\\|');
  if (line === '') return '';
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') || (line.startsWith(' ') && line.endsWith(' ') && line.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

/** Plain text in Markdown (the title): markup characters escaped, so it reads as typed. */
export const mdText = (text: string): string =>
  text
    .replace(/[\r\n]+/g, ' ')
    .replace(/[\\`*_[\]#|!~]/g, (c) => `\\${c}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

const VERDICT_WORDS = { passed: 'Passed', scored: 'Scored', failed: 'Failed' } as const;
const STATUS: Record<ComparisonStatus, string> = {
  regressed: '▼ regressed',
  improved: '▲ improved',
  unchanged: 'unchanged',
  inconclusive: '? inconclusive',
  added: '+ added',
  removed: '− removed',
};

/** A table that can lose rows from its end, with a note saying how many. */
interface Table {
  before: string[];
  header: string[];
  /** The rows that could fit: at most one per `MIN_ROW` characters of the limit, however many there are. */
  rows: string[];
  /** All the rows there are. */
  total: number;
  after: string[];
  /** The note when `left` of the rows were cut. */
  note: (left: number, total: number) => string;
}

/** No table row is shorter than this (`| a | b | 0 | 0 |`), so no more rows than maxLength / MIN_ROW can fit. */
const MIN_ROW = 16;

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export function renderSummary(result: ReadResult, { title, comparison, maxLength = SUMMARY_MAX_LENGTH }: SummaryOptions): string {
  const views = scorerViews(result);
  const verdict = result.verdict === undefined ? 'No verdict' : VERDICT_WORDS[result.verdict];
  const blocks: Array<string[] | Table> = [];
  const limit = `to keep this summary within ${maxLength.toLocaleString('en-US')} characters`;

  let heading = `## ${mdText(title)}: ${verdict}`;
  if (comparison) {
    const { comparison: c, slots, shared, tolerance } = comparison;
    const label = (id: string) => {
      const slot = slots.get(id);
      return `${code(slot?.label ?? id)}${slot?.gate ? ' (gate)' : ''}${slot?.direction === 'lower-is-better' ? ' (lower is better)' : ''}`;
    };
    const withStatus = (status: ComparisonStatus) => c.scorers.filter((s) => s.status === status);
    const regressed = withStatus('regressed');
    const removed = withStatus('removed');
    const inconclusive = withStatus('inconclusive');
    const improved = withStatus('improved');
    const counted = [[regressed, 'regressed'], [removed, 'removed'], [inconclusive, 'inconclusive']] as const;
    const told = counted.filter(([list]) => list.length > 0).map(([list, word]) => `${list.length} ${word}`);
    if (told.length > 0) heading += `, ${told.join(', ')}`;
    else if (improved.length > 0) heading += `, ${improved.length} improved`;
    const interval = (s: ScorerComparison) => (s.interval === null ? '' : `, 95% interval ${formatDifference(s.interval[0])} to ${formatDifference(s.interval[1])}`);
    const lead: string[] = [];
    if (regressed.length > 0) {
      lead.push(`**${plural(regressed.length, 'scorer')} regressed** against the baseline: ${regressed.map((s) => `${label(s.id)} (${formatDifference(s.difference!)})`).join(', ')}.`);
    }
    if (removed.length > 0) {
      lead.push(`**${plural(removed.length, 'scorer')} removed**, in the baseline only, so ${removed.length === 1 ? 'it is' : 'they are'} no longer checked: ${removed.map((s) => label(s.id)).join(', ')}.`);
    }
    if (inconclusive.length > 0) {
      const why = (s: ScorerComparison) => {
        const pairs = slots.get(s.id)?.pairs ?? 0;
        if (s.interval !== null) return `${label(s.id)} (${formatDifference(s.difference!)}${interval(s)})`;
        return `${label(s.id)} (${pairs === 0 ? 'no item' : 'only 1 item'} scored by both runs)`;
      };
      lead.push(
        `**${plural(inconclusive.length, 'scorer')} inconclusive** over ${plural(shared, 'item')} in both runs: ${inconclusive.map(why).join(', ')}. ` +
          'A change for the worse beyond the tolerance can be neither shown nor ruled out: too few items, too much noise, or too few scored by both runs.',
      );
    }
    if (regressed.length === 0 && removed.length === 0 && inconclusive.length === 0) {
      lead.push(`No scorer regressed against the baseline${improved.length > 0 ? `; ${improved.length} improved: ${improved.map((s) => `${label(s.id)} (${formatDifference(s.difference!)})`).join(', ')}` : ''}.`);
      lead.push(`Compared over ${plural(shared, 'item')} in both runs.`);
    }
    const added = withStatus('added');
    if (added.length > 0) lead.push(`New in this run, so not compared: ${added.map((s) => label(s.id)).join(', ')}.`);
    // What limits the comparison as a whole comes before anything else, so nobody reads past it.
    const warning = c.warnings.length > 0 ? [`> **Warning:** ${c.warnings.map(mdText).join(' ')}`, ''] : [];
    blocks.push([...warning, heading, '', lead.join(' '), '']);
    const order: Record<ComparisonStatus, number> = { regressed: 0, removed: 1, inconclusive: 2, improved: 3, added: 4, unchanged: 5 };
    const rows = [...c.scorers]
      .map((s, i) => ({ s, i }))
      .sort((x, y) => order[x.s.status] - order[y.s.status] || x.i - y.i)
      .map(({ s }) => {
        const cell = (v: number | null) => (v === null ? '—' : formatScore(v));
        const range = s.interval === null ? '—' : `${formatDifference(s.interval[0])} to ${formatDifference(s.interval[1])}`;
        return `| ${label(s.id)} | ${cell(s.before)} | ${cell(s.after)} | ${s.difference === null ? '—' : formatDifference(s.difference)} | ${range} | ${slots.get(s.id)?.pairs ?? 0} | ${STATUS[s.status]} |`;
      });
    const onlyIn = [
      c.onlyInResult > 0 ? `${plural(c.onlyInResult, 'item')} only in this run` : '',
      c.onlyInBaseline > 0 ? `${plural(c.onlyInBaseline, 'item')} only in the baseline` : '',
    ].filter(Boolean).join(', ');
    const own = [...slots.entries()].filter(([, slot]) => slot.tolerance !== tolerance).map(([id, slot]) => `${label(id)} ${formatScore(slot.tolerance)}`);
    blocks.push({
      before: ['### Compared with the baseline', ''],
      header: ['| Scorer | Before | After | Difference | 95% interval | Items | Status |', '| --- | ---: | ---: | ---: | --- | ---: | --- |'],
      rows,
      total: rows.length,
      after: [
        '',
        `${plural(shared, 'item')} in both runs${onlyIn ? ` (${onlyIn})` : ''}. Difference: this run minus the baseline, item by item, with a paired 95% t-interval. ` +
          `A scorer regressed when its whole interval lies more than ${formatScore(tolerance)}${own.length > 0 ? ` (${own.join(', ')})` : ''} on the worse side of 0 (below it; above it where lower is better), ` +
          'and is inconclusive when its interval reaches there without lying wholly there.',
        '',
      ],
      note: (left, total) => `_${left} of ${total} scorers are left out ${limit}, unchanged ones first; the JSON comparison lists them all._`,
    });
  } else {
    blocks.push([heading, '']);
  }

  const failingGates = views.filter((v) => v.gate && v.gatePassed === false).map((v) => code(v.label));
  const missed = views.filter((v) => v.thresholdPassed === false).map((v) => code(v.label));
  const verdictLine = [
    `**Verdict: ${verdict}.**`,
    failingGates.length > 0 ? `Failed gates: ${failingGates.join(', ')}.` : '',
    missed.length > 0 ? `Missed thresholds: ${missed.join(', ')}.` : '',
    `${plural(result.summary.totalItems, 'item')}.`,
    shardSentence(result, comparison !== undefined),
  ].filter(Boolean).join(' ');
  blocks.push({
    before: comparison ? ['### This run', '', verdictLine, ''] : [verdictLine, ''],
    header: ['| Scorer | Mean | Role | Outcome |', '| --- | ---: | --- | --- |'],
    total: views.length,
    rows: views.map((v) => {
      const role = v.gate ? 'gate (= 1)' : v.threshold !== null ? `threshold ${formatThreshold(v.threshold)}` : 'tracked';
      const outcome = v.gatePassed === false || v.thresholdPassed === false ? '**failed**' : v.gatePassed || v.thresholdPassed ? 'passed' : '—';
      return `| ${code(v.label)} | ${v.mean === null ? '—' : formatScore(v.mean)} | ${role} | ${outcome} |`;
    }),
    after: [''],
    note: (left, total) => `_${left} of ${total} scorers are left out ${limit}; the HTML report lists them all._`,
  });

  if (comparison && comparison.comparison.worse.length > 0) {
    const { comparison: c, slots, baselineItems } = comparison;
    blocks.push({
      before: ['### Items that got worse', '', 'Largest change first.', ''],
      header: ['| Item | Scorer | Before | After | Input |', '| --- | --- | ---: | ---: | --- |'],
      total: c.worse.length,
      // Tens of thousands at scale; only the first maxLength / MIN_ROW can ever be shown.
      rows: c.worse.slice(0, Math.ceil(maxLength / MIN_ROW)).map((w) => {
        const input = preview(baselineItems.get(w.item)?.input, 60);
        const slot = slots.get(w.scorer);
        return `| ${code(w.item)} | ${code(slot?.label ?? w.scorer)}${slot?.gate ? ' (gate)' : ''} | ${formatScore(w.before)} | ${formatScore(w.after)} | ${code(input)} |`;
      }),
      after: [''],
      note: (left, total) => `_${left.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} items that got worse are left out ${limit} (the smallest drops); the HTML report and the JSON comparison list them all._`,
    });
  }

  return fit(blocks, maxLength);
}

/** A shard's summary says it is one (and, compared, that the baseline is the same shard: `checkComparable`). */
const shardSentence = ({ shard }: ReadResult, compared: boolean): string =>
  shard === undefined
    ? ''
    : `This is shard ${shard.index} of ${shard.count}${shard.run === undefined ? '' : ` of run ${code(shard.run)}`}, not the whole run${compared ? ', compared with the same shard of the baseline' : ''}.`;

const render = (blocks: ReadonlyArray<string[] | Table>, kept: ReadonlyMap<Table, number>): string => {
  const lines: string[] = [];
  for (const block of blocks) {
    if (Array.isArray(block)) {
      lines.push(...block);
      continue;
    }
    const keep = kept.get(block) ?? block.rows.length;
    lines.push(...block.before);
    if (keep > 0) lines.push(...block.header, ...block.rows.slice(0, keep));
    if (keep < block.total) lines.push(...(keep > 0 ? [''] : []), block.note(block.total - keep, block.total));
    lines.push(...block.after);
  }
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
};

/** Cuts rows from the last table first, then the one before, until the text fits. */
function fit(blocks: ReadonlyArray<string[] | Table>, maxLength: number): string {
  const kept = new Map<Table, number>();
  let text = render(blocks, kept);
  const tables = blocks.filter((b): b is Table => !Array.isArray(b)).reverse();
  for (const table of tables) {
    if (text.length <= maxLength) return text;
    // The most rows of this table that fit, by bisection (text length grows with rows kept).
    let lo = 0;
    let hi = table.rows.length;
    kept.set(table, 0);
    if (render(blocks, kept).length > maxLength) {
      text = render(blocks, kept);
      continue;
    }
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      kept.set(table, mid);
      if (render(blocks, kept).length <= maxLength) lo = mid;
      else hi = mid - 1;
    }
    kept.set(table, lo);
    text = render(blocks, kept);
  }
  // Still too long (a title of 60,000 characters): the hard limit holds anyway.
  return text.length <= maxLength ? text : `${text.slice(0, maxLength - 2)}…\n`;
}
