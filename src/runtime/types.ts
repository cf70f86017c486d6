/**
 * Types only: what the generated declaration file (the `dts` option) and `agent-scorers/client` use to
 * type the registry from the scorer files and configs themselves. Mastra's `MastraScorer` has
 * `#private` members, so only the type a file really exports fits `new Agent({ scorers })`; where no
 * such type exists (no generated file, a JavaScript file TypeScript does not read), the types are
 * loose (`any` scorers) rather than wrong.
 */
import type { Sampling } from './registry.js';

/** An entry whose scorer's type is not known: still fits Mastra's `MastraScorerEntry` (a type, not an interface, so it also fits records with an index signature). */
export type LooseScorerEntry = {
  readonly scorer: any;
  readonly sampling?: Sampling;
  readonly filter?: any;
};

/** A record of entries whose types are not known. */
export type LooseScorerRecord = { readonly [key: string]: LooseScorerEntry };

/** A `config.scorers` function whose type is not known: takes `{ requestContext }`, returns a record. */
export type LooseScorersFunction = (context: { requestContext?: unknown; [key: string]: unknown }) =>
  | LooseScorerRecord
  | Promise<LooseScorerRecord>;

/** What the registry holds for an agent whose form is not known: a record or the config's function. */
export type LooseAgentScorers = LooseScorerRecord | LooseScorersFunction;

type AnyFunction = (...args: any[]) => any;
/** True for `any`, which every conditional type below would otherwise split into both branches. */
type IsAny<T> = 0 extends 1 & T ? true : false;

/**
 * The registry entry of a scorer file whose default export has type `T`: a bare scorer becomes
 * `{ readonly scorer: T }`; an entry keeps its own types, except `sampling`, typed as the sampling union
 * (a plainly written `{ type: 'ratio', rate: 0.5 }` is `{ type: string; rate: number }` to TypeScript,
 * which Mastra's type would refuse; the build has checked the value), and Mastra's `filter`, passed
 * through untyped for the same reason. Every entry has at least an optional `sampling`, as Mastra's own
 * entry type does, so code that reads `entry.sampling` over a whole record type-checks.
 */
export type FileEntry<T> =
  IsAny<T> extends true
    ? LooseScorerEntry
    : T extends { readonly scorer: unknown }
      ? { readonly [K in keyof T]: K extends 'sampling' ? Sampling : K extends 'filter' ? any : T[K] } & { readonly sampling?: Sampling }
      : { readonly scorer: T; readonly sampling?: Sampling };

type ScorersOf<C> = C extends { readonly scorers?: infer S } ? S : undefined;
type RecordOf<C> = Exclude<ScorersOf<C>, AnyFunction | undefined | null>;

/**
 * The registry entry of key `K` in the `config.scorers` record of a config whose default export has
 * type `C` (a config key that collides with a file, or one only the config has).
 */
export type ConfigEntry<C, K extends string> =
  IsAny<C> extends true ? LooseScorerEntry : K extends keyof RecordOf<C> ? FileEntry<NonNullable<RecordOf<C>[K]>> : LooseScorerEntry;

/** The type of the `config.scorers` function of a config whose default export has type `C`. */
export type ConfigFunction<C> =
  IsAny<C> extends true
    ? LooseScorersFunction
    : [Extract<ScorersOf<C>, AnyFunction>] extends [never]
      ? LooseScorersFunction
      : Extract<ScorersOf<C>, AnyFunction>;

/**
 * What the registry holds for an agent whose config default-exports a `new Agent(...)` of type `C`: a
 * function form resolving to that Agent's own scorers (`agent.listScorers({ requestContext })`).
 */
export type AgentScorersFunction<C> = C extends { listScorers(...args: any[]): infer R }
  ? (context: { requestContext?: unknown; [key: string]: unknown }) => R
  : LooseScorersFunction;

/**
 * A record of entries or bare scorers `R` as the registry normalises it: every value an entry. An
 * optional key (`...(premium ? { sla } : {})`) stays optional rather than becoming `{ scorer: undefined }`.
 */
export type EntriesOf<R> = IsAny<R> extends true ? LooseScorerRecord : { readonly [K in keyof R]: FileEntry<NonNullable<R[K]>> };

/**
 * What `resolveScorers` gives for an agent whose registry value has type `V`: `V` itself for a record,
 * the normalised result of the function form.
 */
export type ResolvedEntries<V> = V extends AnyFunction ? EntriesOf<Awaited<ReturnType<V>>> : V;
