/**
 * `runEvals({ data: dataset, experiment })`: the run recorded as a Mastra experiment of that dataset,
 * through Mastra 1.71's caller-driven API (`createExperiment`, `submitExperimentResult`,
 * `finalizeExperiment`), so Studio lists it and compares it with any other run of the dataset.
 *
 * Shards of one run record into one experiment from separate processes:
 * - Its id is derived from the run's identity (`experimentIdFor`), so every shard names the same one.
 * - Creating it is safe when shards start at once. Mastra's create is a check, then an insert that
 *   replaces a row already there; two shards passing the check together both insert. The rows they
 *   insert are equal (the same id, dataset version, name and metadata: nothing in them depends on the
 *   shard), and nothing can be lost to the second insert, because no experiment is finalized before
 *   every shard with items has created it: a shard creates before it submits its first row, only a
 *   shard with items creates, and finalizing needs every item's row. So a second insert replaces a
 *   running experiment with an equal running one; it never reopens a finished one.
 * - Each item's row is an upsert on (experiment, item, attempt 0): a retried job converges on the
 *   same rows. Mastra refuses rows for a finished experiment; a retried job then compares its rows
 *   with the stored ones and fails only when they differ.
 * - The shard that finds every item's row stored finalizes the experiment (Mastra counts the rows;
 *   two shards finalizing at once compute the same counts).
 */
import { canonicalJson } from './eval-identity.js';
import { message, type ItemRun } from './run-evals-items.js';
import type { Plan } from './run-evals-scorers.js';
import type { ScorerLike } from '../registry.js';
import { sha256Hex } from '../sha256.js';
import type { EvalExperiment, EvalItemResult, MastraDatasetLike } from './run-evals-types.js';

const where = 'runEvals';

/**
 * The experiment's id: the one given, else one derived from the run's identity (the same in every shard
 * of the run), the dataset, the experiment's name and the target, else (no run identity) a new one.
 */
export function experimentIdFor(datasetId: string, experiment: EvalExperiment, run: string | undefined, target: string): string {
  if (experiment.id !== undefined) return experiment.id;
  if (run === undefined) return globalThis.crypto.randomUUID();
  const hex = sha256Hex(JSON.stringify(['agent-scorers/experiment', datasetId, run, experiment.name ?? '', target]));
  // UUID-shaped (version 8: custom), so it reads like every other experiment id in Studio.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The run's identity that names its experiment: the shard's `run`, as `runEvals` resolved it
 * (`resolveShardRun`: the given run, else the CI's run id, else the commit).
 */
export const runIdentityOf = (config: { shard?: { run?: string } }): string | undefined => config.shard?.run;

/** A target's name for the experiment's metadata and id: an Agent's or Workflow's id, a function's name. */
export function targetOf(target: unknown): { type: string; id: string } {
  const t = target as { id?: unknown; name?: unknown; createRun?: unknown; getModel?: unknown } | undefined;
  const type = typeof t?.getModel === 'function' ? 'agent' : typeof t?.createRun === 'function' ? 'workflow' : typeof target === 'function' ? 'function' : 'object';
  const id = typeof t?.id === 'string' && t.id ? t.id : typeof t?.name === 'string' && t.name ? t.name : type;
  return { type, id };
}

interface StoredExperiment {
  id: string;
  datasetVersion: number | null;
  targetType: string | null;
  targetId?: string | null;
  status: string;
}

/** Checks an experiment of the same id already stored: it must be one this package can add rows to. */
export async function existingExperiment(dataset: MastraDatasetLike, id: string, pinned: number | undefined): Promise<StoredExperiment | undefined> {
  const existing: StoredExperiment | null = await (dataset as any).getExperiment({ experimentId: id });
  if (!existing) return undefined;
  if (existing.targetType !== null && existing.targetType !== undefined) {
    throw new TypeError(
      `${where}: experiment ${JSON.stringify(id)} was run by Mastra on ${existing.targetType} "${existing.targetId}", so no results can be added to it; give experiment.id a new id`,
    );
  }
  if (pinned !== undefined && existing.datasetVersion !== null && existing.datasetVersion !== pinned) {
    throw new TypeError(`${where}: experiment ${JSON.stringify(id)} records dataset version ${existing.datasetVersion}, not version ${pinned}; pin the same version or give experiment.id a new id`);
  }
  return existing;
}

/** The fields of a stored row that a retried run must reproduce. */
interface Row {
  itemId: string;
  input: unknown;
  output: unknown;
  groundTruth: unknown;
  error: { message: string } | null;
  scores: Array<{ scorerId: string; scorerName: string; score: number; reason?: string; metadata?: Record<string, unknown> }>;
}

/** What Mastra's own runner stores as an Agent's output (its `executeAgent`), from the Agent's reply. */
function agentOutput(reply: any): unknown {
  return {
    text: reply.text,
    object: reply.object,
    toolCalls: reply.toolCalls,
    toolResults: reply.toolResults,
    sources: reply.sources,
    files: reply.files,
    usage: reply.usage,
    reasoningText: reply.reasoningText,
    traceId: reply.traceId ?? null,
    error: reply.error ?? null,
  };
}

/** JSON as storage keeps it (undefined fields dropped), with an Agent output's per-call trace id set aside. */
function comparable(row: { input: unknown; output: unknown; groundTruth: unknown; error: unknown }): string {
  const output = row.output && typeof row.output === 'object' && 'traceId' in row.output ? { ...(row.output as object), traceId: null } : row.output;
  return canonicalJson(JSON.parse(JSON.stringify({ input: row.input ?? null, output: output ?? null, groundTruth: row.groundTruth ?? null, error: row.error ? { message: (row.error as { message?: unknown }).message } : null })));
}

export interface ExperimentRecorder {
  readonly id: string;
  /** An item that ran: its row and scores, submitted. */
  record(item: Record<string, any>, run: ItemRun, result: EvalItemResult): Promise<void>;
  /** An item that failed: its row, with the error. */
  failed(item: Record<string, any>, error: unknown): Promise<void>;
  /** After the shard's last item: finalize when every item of the dataset has its row. */
  finish(): Promise<void>;
}

export interface OpenExperiment {
  dataset: MastraDatasetLike;
  id: string;
  version: number;
  existing: StoredExperiment | undefined;
  experiment: EvalExperiment;
  target: { type: string; id: string };
  run: string | undefined;
  /** Every item id of the dataset at `version`. */
  itemIds: readonly string[];
  /** Whether this shard runs any item (a shard with none creates nothing). */
  hasItems: boolean;
  /** Scorer and gate names by id, for the stored scores. */
  names: ReadonlyMap<string, string>;
}

const isFinished = (status: string | undefined) => status === 'completed' || status === 'failed';

/** Creates the experiment where this shard must (see the file's comment) and returns its recorder. */
export async function openExperiment(open: OpenExperiment): Promise<ExperimentRecorder> {
  const { dataset, id, version, experiment, target, run, itemIds, names } = open;
  const api = dataset as any;
  let finished = isFinished(open.existing?.status);
  let created = open.existing !== undefined;
  if (open.hasItems && !finished) {
    const made = await api.createExperiment({
      id,
      name: experiment.name ?? (run !== undefined ? `${target.id}, run ${run}` : target.id),
      metadata: { target, runner: 'agent-scorers', ...(run !== undefined ? { run } : {}), ...experiment.metadata },
      version,
    });
    if (made.datasetVersion !== version) {
      throw new Error(`${where}: experiment ${JSON.stringify(id)} was created by another shard at dataset version ${made.datasetVersion} while this one read version ${version}; pin data: { dataset, version }`);
    }
    finished = isFinished(made.status);
    created = true;
  }

  // Rows of a finished experiment, compared with the stored ones at the end.
  const held: Row[] = [];

  const submit = async (row: Row) => {
    if (finished) {
      held.push(row);
      return;
    }
    try {
      await api.submitExperimentResult({ experimentId: id, attempt: 0, ...row });
    } catch (error) {
      if ((error as { id?: unknown })?.id !== 'EXPERIMENT_ALREADY_FINALIZED') {
        throw new Error(`${where}: recording item ${JSON.stringify(row.itemId)} in experiment ${JSON.stringify(id)} failed: ${message(error)}`, { cause: error });
      }
      finished = true;
      held.push(row);
    }
  };

  const storedRows = async () => {
    const rows = new Map<string, any>();
    for (let page = 0; ; page++) {
      const { results, pagination } = await api.listExperimentResults({ experimentId: id, page, perPage: 100 });
      for (const row of results) if ((row.attempt ?? 0) === 0) rows.set(row.itemId, row);
      if (!pagination?.hasMore || results.length === 0) break;
    }
    return rows;
  };

  return {
    id,
    async record(item, run, result) {
      const scores: Row['scores'] = [];
      const seen = new Set<string>();
      for (const group of [result.scores, result.trajectory, result.gates]) {
        for (const [scorerId, entry] of Object.entries(group ?? {})) {
          if (seen.has(scorerId) || typeof entry.score !== 'number') continue;
          seen.add(scorerId);
          scores.push({
            scorerId,
            scorerName: names.get(scorerId) ?? scorerId,
            score: entry.score,
            ...(entry.reason !== null ? { reason: entry.reason } : {}),
            // Mastra's runner keeps the item's metadata beside each score.
            ...(item.metadata !== undefined ? { metadata: item.metadata } : {}),
          });
        }
      }
      const reply = (run as { reply?: unknown }).reply;
      await submit({
        itemId: String(item.id),
        input: item.input,
        output: reply && typeof reply === 'object' && target.type === 'agent' ? agentOutput(reply) : run.output,
        groundTruth: item.groundTruth ?? null,
        error: null,
        scores,
      });
    },
    async failed(item, error) {
      if (finished) return;
      await submit({ itemId: String(item.id), input: item.input, output: null, groundTruth: item.groundTruth ?? null, error: { message: message(error) }, scores: [] });
    },
    async finish() {
      if (!created && !(await api.getExperiment({ experimentId: id }))) return;
      const rows = await storedRows();
      if (held.length > 0) {
        const differ = held.filter((row) => {
          const stored = rows.get(row.itemId);
          return !stored || comparable(stored) !== comparable(row);
        });
        if (differ.length > 0) {
          const names = differ.slice(0, 5).map((row) => JSON.stringify(row.itemId)).join(', ');
          throw new Error(
            `${where}: experiment ${JSON.stringify(id)} is already finished, and this run's results differ from the stored ones for item${differ.length === 1 ? '' : 's'} ${names}${differ.length > 5 ? ` and ${differ.length - 5} more` : ''}; give experiment.id a new id to record this run`,
          );
        }
        return;
      }
      if (finished) return;
      if (itemIds.every((itemId) => rows.has(itemId))) await api.finalizeExperiment({ experimentId: id });
    },
  };
}

/** Each scorer's and gate's name by id, as Mastra stores it beside a score (a scorer without a name: its id). */
export function scorerNames(plan: Plan, gates: readonly ScorerLike[] | undefined): Map<string, string> {
  const scorers: ScorerLike[] = [...(gates ?? [])];
  if (plan.form === 'list') scorers.push(...plan.slots.map((slot) => slot.scorer));
  if (plan.form === 'structured') {
    for (const value of Object.values(plan.groups)) {
      if (Array.isArray(value)) scorers.push(...value);
      else if (value) for (const list of Object.values(value as Record<string, ScorerLike[]>)) scorers.push(...list);
    }
  }
  return new Map(scorers.map((scorer) => [scorer.id, typeof scorer.name === 'string' && scorer.name ? scorer.name : scorer.id]));
}
