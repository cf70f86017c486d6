/**
 * The inspector's pure pieces: which peer addresses are loopback, which Host names are this machine's,
 * the run limiter's bound and queue,
 * and error texts stripped of absolute paths. (Over HTTP they are covered by security.test.ts.)
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { describeFailure, withoutAbsolutePaths } from '../../src/plugin/inspector/errors.js';
import type { IncomingMessage } from 'node:http';
import { createLimiter, hostName, isLoopback, isLoopbackHost, refusal } from '../../src/plugin/inspector/guard.js';
import { REPO } from '../helpers/hosts.js';

describe('isLoopback', () => {
  test.each(['127.0.0.1', '127.1.2.3', '127.255.255.254', '::1', '::ffff:127.0.0.1', '::FFFF:127.9.9.9'])('%s is loopback', (address) => {
    expect(isLoopback(address)).toBe(true);
  });
  test.each(['10.200.0.2', '192.168.1.5', '::ffff:10.0.0.1', '::', '0.0.0.0', '128.0.0.1', '127.0.0.1.example', 'localhost', '', undefined])(
    '%s is not',
    (address) => {
      expect(isLoopback(address)).toBe(false);
    },
  );
});

describe('the Host rule (DNS rebinding)', () => {
  test.each([
    ['localhost:5173', 'localhost'],
    ['LocalHost.:5173', 'localhost'],
    ['[::1]:5173', '::1'],
    ['[::1]', '::1'],
    ['127.0.0.1', '127.0.0.1'],
    ['Rebind.Example:80', 'rebind.example'],
  ])('Host %s names %s', (header, name) => {
    expect(hostName(header)).toBe(name);
  });

  test.each(['localhost', 'app.localhost', '127.0.0.1', '127.3.2.1', '::1'])('%s is this machine', (name) => expect(isLoopbackHost(name)).toBe(true));
  test.each(['rebind.example', 'localhost.example', 'notlocalhost', '10.0.0.1', '0.0.0.0'])('%s is not', (name) => expect(isLoopbackHost(name)).toBe(false));

  const request = (host: string | undefined, headers: Record<string, string> = {}) =>
    ({ headers: { ...(host === undefined ? {} : { host }), ...headers }, socket: { remoteAddress: '127.0.0.1', localAddress: '127.0.0.1' } }) as unknown as IncomingMessage;

  test('from loopback, a foreign Host is refused with how to allow it, even when its Origin agrees; its own hosts and no Host pass', () => {
    const own = (name: string) => name === '192.168.1.5' || name === 'devbox.lan';
    expect(refusal(request('rebind.example:5173', { origin: 'http://rebind.example:5173', 'sec-fetch-site': 'same-origin' }), false, own)).toBe(
      'Requests for host "rebind.example" are refused: it is neither this machine\'s loopback nor an address this server listens on, which is how a DNS-rebinding page on another site would arrive. To use the inspector under this name, set inspector: { remote: true } in the agent-scorers plugin options.',
    );
    for (const host of ['localhost:5173', '192.168.1.5:5173', 'devbox.lan:5173', undefined]) expect(refusal(request(host), false, own), String(host)).toBe(null);
    // remote: true lifts the rule, and nothing else.
    expect(refusal(request('rebind.example:5173', { origin: 'http://rebind.example:5173' }), true, own)).toBe(null);
    expect(refusal(request('rebind.example:5173', { 'sec-fetch-site': 'cross-site' }), true, own)).toMatch(/^Requests from another origin are refused/);
  });
});

describe('createLimiter', () => {
  test('runs 2 at once, queues 3 in order, refuses the rest, and a queued task whose client left never runs', async () => {
    const limiter = createLimiter(2, 3);
    let active = 0;
    let max = 0;
    const order: number[] = [];
    const releases: Array<() => void> = [];
    const task = (n: number) => async () => {
      active++;
      max = Math.max(max, active);
      order.push(n);
      await new Promise<void>((resolve) => releases.push(resolve));
      active--;
      return n;
    };
    const drops: Array<() => void> = [];
    const results = [0, 1, 2, 3, 4].map((n) => limiter.run(task(n), (drop) => void drops.push(drop)));
    expect(results.every((r) => r !== null)).toBe(true);
    expect(limiter.run(task(5))).toBe(null);
    expect(order).toEqual([0, 1]);
    drops[1](); // task 3's client left while it waited (drops[0] is task 2's)
    releases[0]();
    await results[0];
    await expect.poll(() => order).toEqual([0, 1, 2]);
    releases[1]();
    releases[2]();
    await expect.poll(() => order).toEqual([0, 1, 2, 4]);
    releases[3]();
    expect(await Promise.all(results)).toEqual([0, 1, 2, undefined, 4]);
    expect(max).toBe(2);
    expect(active).toBe(0);
    // Free again.
    const again = limiter.run(async () => 'ok');
    expect(await again).toBe('ok');
  });
});

describe('error texts', () => {
  const root = path.join(REPO, 'test/.tmp/project');

  test('absolute paths become root-relative; URLs, routes and relative paths stay', () => {
    expect(withoutAbsolutePaths(`Cannot find ${root}/src/a.ts (imported by ${root}/src/b.ts:3:1)`, root)).toBe(
      'Cannot find src/a.ts (imported by src/b.ts:3:1)',
    );
    expect(withoutAbsolutePaths(`Failed at file://${root}/src/x.ts?t=1:2:3`, root)).toBe('Failed at src/x.ts:2:3');
    expect(withoutAbsolutePaths(`outside: ${REPO}/package.json`, root)).toBe('outside: ../../../package.json');
    const kept = 'POST http://localhost:5173/__agent-scorers/api/run failed; see /api/run and src/a.ts';
    expect(withoutAbsolutePaths(kept, root)).toBe(kept);
  });

  test('a thrown error is named by the planned file in its stack, never by a node_modules frame', () => {
    const config = `${root}/src/mastra/agents/we"ird \${x}/config.ts`;
    const error = new Error('no key');
    error.stack = [
      'Error: no key',
      `    at helper (${REPO}/node_modules/some-lib/index.js:1:1)`,
      `    at ${root}/src/lib/util.ts:4:2`,
      `    at eval (${config}:3:7)`,
    ].join('\n');
    expect(describeFailure(error, { root, files: new Set([config]) })).toBe('src/mastra/agents/we"ird ${x}/config.ts: no key');
    expect(describeFailure(error, { root, files: new Set() })).toBe('src/lib/util.ts: no key');
    expect(describeFailure(new Error('plain'), { root, files: new Set() })).toBe('plain');
  });
});
