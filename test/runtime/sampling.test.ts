import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { shouldSample } from '../../src/runtime/index.js';
import { hashToUnitInterval, sha256Hex } from '../../src/runtime/sha256.js';

const ratio = (rate: number) => ({ sampling: { type: 'ratio' as const, rate } });
const ids = Array.from({ length: 10_000 }, (_, i) => `run-${i}-${randomUUID()}`);

describe('shouldSample', () => {
  it('runs 28%..32% of 10,000 run ids at rate 0.3', () => {
    const selected = ids.filter((runId) => shouldSample(ratio(0.3), { runId })).length;
    expect(selected).toBeGreaterThanOrEqual(2800);
    expect(selected).toBeLessThanOrEqual(3200);
  });

  it('selects at 0.5 every id it selects at 0.1 (a lower rate is a subset of a higher one)', () => {
    const low = ids.filter((runId) => shouldSample(ratio(0.1), { runId }));
    expect(low.length).toBeGreaterThan(0);
    for (const runId of low) expect(shouldSample(ratio(0.5), { runId })).toBe(true);
  });

  it('decides the same id the same way every time', () => {
    const first = ids.slice(0, 500).map((runId) => shouldSample(ratio(0.5), { runId }));
    const second = ids.slice(0, 500).map((runId) => shouldSample(ratio(0.5), { runId }));
    expect(second).toEqual(first);
    expect(first.some(Boolean) && first.some((b) => !b)).toBe(true);
  });

  it('decides by traceId when there is one, else by runId', () => {
    const runs = ids.slice(0, 200);
    const byTrace = runs.map((runId) => shouldSample(ratio(0.5), { traceId: 'trace-fixed', runId }));
    expect(new Set(byTrace).size).toBe(1);
    const expected = hashToUnitInterval('trace-fixed') < 0.5;
    expect(byTrace[0]).toBe(expected);
    expect(shouldSample(ratio(0.5), { traceId: null, runId: runs[0] })).toBe(hashToUnitInterval(runs[0]) < 0.5);
  });

  it('makes the same decision as Mastra (first 6 bytes of sha256 / 2^48, node:crypto)', () => {
    for (const key of [...ids.slice(0, 300), '', 'é€😀 unicode', 'x'.repeat(1000)]) {
      const mastra = createHash('sha256').update(key).digest().readUIntBE(0, 6) / 2 ** 48;
      expect(hashToUnitInterval(key)).toBe(mastra);
    }
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('always runs without sampling or with { type: "none" }, and honours rates 0 and 1', () => {
    expect(shouldSample({}, { runId: 'a' })).toBe(true);
    expect(shouldSample({ sampling: undefined }, { runId: 'a' })).toBe(true);
    expect(shouldSample({ sampling: { type: 'none' } }, { runId: 'a' })).toBe(true);
    expect(ids.slice(0, 100).every((runId) => shouldSample(ratio(1), { runId }))).toBe(true);
    expect(ids.slice(0, 100).some((runId) => shouldSample(ratio(0), { runId }))).toBe(false);
  });

  it.each([
    [{ type: 'ratio', rate: 1.5 }],
    [{ type: 'ratio', rate: -0.1 }],
    [{ type: 'ratio', rate: Number.NaN }],
    [{ type: 'ratio' }],
    [{ type: 'percent', rate: 0.5 }],
    ['0.5'],
    [null],
  ])('throws on invalid sampling %j', (sampling) => {
    expect(() => shouldSample({ sampling } as any, { runId: 'a' })).toThrow(/sampling must be/);
  });
});
