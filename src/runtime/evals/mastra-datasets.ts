/**
 * A Mastra `Dataset` as `runEvals`' `data`: its items at one version, each keeping the dataset item's
 * id as its identity, so a run of the dataset pairs with any other run of it (this package's or
 * Mastra's own `startExperiment`) item by item, and shards choose items by those ids.
 *
 * A `Dataset` is recognised by shape, never by class: the app's `@mastra/core` may be another copy
 * (ESM and CJS builds have different classes), and this package does not import it.
 */
import { existingExperiment, experimentIdFor, openExperiment, runIdentityOf, targetOf, type ExperimentRecorder } from './mastra-experiment.js';
import type { EvalItem, EvalItemResult, MastraDatasetLike, RunEvalsOptions } from './run-evals-types.js';

/** `data` given as a Dataset or as `{ dataset, version }`: which dataset, and the pinned version if any. */
export interface DatasetSource {
  dataset: MastraDatasetLike;
  version?: number;
}

/** A Mastra `Dataset` handle (`mastra.datasets.get(...)`, `mastra.datasets.create(...)`). */
export const isMastraDataset = (value: unknown): value is MastraDatasetLike =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  typeof (value as { id?: unknown }).id === 'string' &&
  typeof (value as { getDetails?: unknown }).getDetails === 'function' &&
  typeof (value as { listItems?: unknown }).listItems === 'function' &&
  typeof (value as { createExperiment?: unknown }).createExperiment === 'function';

/** `data` as a dataset source, or undefined when it is an array of items (or anything else). */
export function datasetSource(data: unknown): DatasetSource | undefined {
  if (isMastraDataset(data)) return { dataset: data };
  if (data === null || typeof data !== 'object' || Array.isArray(data) || !('dataset' in data)) return undefined;
  const { dataset, version, ...rest } = data as { dataset: unknown; version?: unknown };
  if (!isMastraDataset(dataset)) throw new TypeError('runEvals: data.dataset must be a Mastra Dataset (from mastra.datasets.get or mastra.datasets.create)');
  if (version !== undefined && (!Number.isInteger(version) || (version as number) < 1)) {
    throw new TypeError(`runEvals: data.version must be a dataset version (a whole number from 1); got ${JSON.stringify(version)}`);
  }
  const extra = Object.keys(rest);
  if (extra.length > 0) throw new TypeError(`runEvals: data takes { dataset, version? }; unknown ${extra.map((k) => JSON.stringify(k)).join(', ')}`);
  return { dataset, ...(version !== undefined ? { version: version as number } : {}) };
}

/** A dataset's current version (what "latest" means when no version is pinned). */
export async function currentVersion(dataset: MastraDatasetLike): Promise<number> {
  const details = await dataset.getDetails();
  const version = (details as { version?: unknown })?.version;
  if (!Number.isInteger(version)) throw new TypeError(`runEvals: dataset ${JSON.stringify(dataset.id)} reports no version`);
  return version as number;
}

/** A stored dataset item, as far as a run reads it. */
interface StoredItem {
  id: string;
  input: unknown;
  groundTruth?: unknown;
  expectedTrajectory?: unknown;
  requestContext?: Record<string, unknown> | null;
  metadata?: Record<string, unknown> | null;
  /** The dataset version this item's content dates from. */
  datasetVersion?: number;
  createdAt?: string | Date;
}

const time = (value: string | Date | undefined) => (value === undefined ? 0 : new Date(value).getTime() || 0);

/**
 * The dataset's items at `version`, as `runEvals` items: `id` the dataset item id, `input`,
 * `groundTruth`, `expectedTrajectory`, the item's `requestContext` (a Mastra `RequestContext` for Mastra
 * targets, as Mastra's own runner gives it) and `metadata`. In the order they were added (ties by
 * id), so a report lists them the same way on every run.
 */
export async function datasetItems(
  dataset: MastraDatasetLike,
  version: number,
  requestContext?: (values: Record<string, unknown>) => unknown,
  itemVersions?: Map<string, number>,
): Promise<EvalItem[]> {
  const listed = await dataset.listItems({ version });
  const stored: StoredItem[] = Array.isArray(listed) ? listed : ((listed as { items?: StoredItem[] })?.items ?? []);
  if (stored.length === 0) throw new TypeError(`runEvals: dataset ${JSON.stringify(dataset.id)} has no items at version ${version}`);
  for (const item of stored) if (Number.isInteger(item.datasetVersion)) itemVersions?.set(item.id, item.datasetVersion!);
  return [...stored]
    .sort((a, b) => time(a.createdAt) - time(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((item) => ({
      id: item.id,
      input: item.input,
      ...(item.groundTruth !== undefined && item.groundTruth !== null ? { groundTruth: item.groundTruth } : {}),
      ...(item.expectedTrajectory !== undefined && item.expectedTrajectory !== null ? { expectedTrajectory: item.expectedTrajectory } : {}),
      ...(item.requestContext ? { requestContext: requestContext ? requestContext(item.requestContext) : item.requestContext } : {}),
      ...(item.metadata ? { metadata: item.metadata } : {}),
    })) as EvalItem[];
}

/** Mastra's `RequestContext` class from the app's `@mastra/core`, for items that carry a request context. */
export async function mastraRequestContext(): Promise<(values: Record<string, unknown>) => unknown> {
  const specifier = '@mastra/core/request-context';
  const { RequestContext } = await import(/* @vite-ignore */ /* webpackIgnore: true */ /* turbopackIgnore: true */ specifier);
  return (values) => new RequestContext(Object.entries(values));
}

/** What `runEvals` needs of a dataset run: its items, the record of which dataset, and its experiment. */
export interface DatasetRun {
  items: EvalItem[];
  dataset: { id: string; version: number };
  /** Records on each item result the dataset version its content dates from (as Mastra's `itemVersion`). */
  annotate(items: EvalItemResult[]): void;
  /** The experiment's recorder, once the shard knows whether it runs any item; undefined without `experiment`. */
  open(hasItems: boolean, names: ReadonlyMap<string, string>): Promise<ExperimentRecorder | undefined>;
}

/**
 * `config.data` read as a dataset, or undefined when it is an array of items. With `experiment`, the
 * version is the one the experiment already records, if another shard created it first.
 */
export async function datasetRun(config: Pick<RunEvalsOptions<any>, 'data' | 'experiment' | 'target' | 'shard'>): Promise<DatasetRun | undefined> {
  const source = datasetSource(config.data);
  if (!source) {
    if (config.experiment !== undefined) throw new TypeError('runEvals: experiment records the run as an experiment of a Mastra dataset; give a Mastra Dataset as data');
    return undefined;
  }
  const { dataset } = source;
  const experiment = config.experiment;
  if (experiment !== undefined && (experiment === null || typeof experiment !== 'object' || Array.isArray(experiment))) {
    throw new TypeError('runEvals: experiment must be an object: { name?, id?, metadata? }');
  }
  const target = targetOf(config.target);
  const run = runIdentityOf(config);
  const id = experiment ? experimentIdFor(dataset.id, experiment, run, target.id) : undefined;
  const existing = id !== undefined ? await existingExperiment(dataset, id, source.version) : undefined;
  const version = existing?.datasetVersion ?? source.version ?? (await currentVersion(dataset));
  const mastraTarget = target.type === 'agent' || target.type === 'workflow';
  const itemVersions = new Map<string, number>();
  const items = await datasetItems(dataset, version, mastraTarget ? await mastraRequestContext() : undefined, itemVersions);
  return {
    items,
    dataset: { id: dataset.id, version },
    annotate(results) {
      for (const result of results) {
        const itemVersion = itemVersions.get(result.id);
        if (itemVersion !== undefined) result.datasetVersion = itemVersion;
      }
    },
    open: async (hasItems, names) =>
      experiment && id !== undefined
        ? openExperiment({ dataset, id, version, existing, experiment, target, run, itemIds: items.map((item) => String(item.id)), hasItems, names })
        : undefined,
  };
}
