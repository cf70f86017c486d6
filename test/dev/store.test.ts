/**
 * A dev server with the readings store (option `cache`, on by default outside CI): a restart reuses what the
 * last server kept (proven by a reading tampered with in the store), and edits while it runs still
 * show on the next import, read afresh.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { age, prepare } from '../helpers/hosts.js';
import { importPlugin, importVite, watcherSettled } from './helpers.js';

const TONE = 'src/mastra/agents/weather/scorers/tone.ts';

test('a restarted dev server reuses the kept readings; an edit while it runs is read again', async () => {
  const vite = await importVite('vite8');
  const agentScorers = await importPlugin();
  const dir = prepare('dev-basic', 'store');
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "dev-store", "private": true }\n');
  age(path.join(dir, 'src'));
  const start = async () => {
    const server = await vite.createServer({
      configFile: false,
      root: dir,
      logLevel: 'silent',
      appType: 'custom',
      plugins: [agentScorers({ dts: false, cache: true })],
      optimizeDeps: { noDiscovery: true, include: [] },
    });
    await watcherSettled(server.watcher, path.join(dir, 'src')); // node_modules is not watched
    return server;
  };
  const sampling = async (server: any) => (await server.ssrLoadModule('virtual:agent-scorers')).manifest.agents.weather.scorers.tone.sampling;

  const first = await start();
  expect(await sampling(first)).toEqual({ type: 'ratio', rate: 0.5 });
  await first.close();
  const folder = path.join(dir, 'node_modules/.vite/agent-scorers');
  const [file] = fs.readdirSync(folder);
  const data = JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8')) as { values: unknown[]; entries: Array<[string, string, string, number]> };
  data.values.push({ hasDefault: true, problem: null, sampling: { kind: 'valid', value: { type: 'ratio', rate: 0.9 } }, shape: 'entry' });
  data.entries.find((e) => e[0] === 'scorer' && e[1] === TONE)![3] = data.values.length - 1;
  fs.writeFileSync(path.join(folder, file), JSON.stringify(data));

  const second = await start();
  try {
    expect(await sampling(second)).toEqual({ type: 'ratio', rate: 0.9 }); // from the store
    const tone = path.join(dir, TONE);
    fs.writeFileSync(tone, fs.readFileSync(tone, 'utf8').replace('rate: 0.5', 'rate: 0.3'));
    const deadline = Date.now() + 10_000;
    let seen: unknown;
    while (Date.now() < deadline) {
      seen = await sampling(second).catch((error: Error) => error.message);
      if (JSON.stringify(seen) === JSON.stringify({ type: 'ratio', rate: 0.3 })) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(seen).toEqual({ type: 'ratio', rate: 0.3 });
  } finally {
    await second.close();
  }
});
