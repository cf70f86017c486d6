/**
 * Who may use the dev inspector and how much, over real HTTP against a real Vite 8 dev server with
 * the plugin from `dist/`: other origins (Fetch Metadata, Origin) are refused on every route, what
 * runs user code is a JSON POST (a GET on it runs nothing, shown by a marker the config function
 * writes), scorer runs are bounded (the scorer itself counts how many run at once; runs that never
 * settle are answered after `runTimeout` and free their slots), errors name the file without an
 * absolute path or a stack, a DNS-rebinding Host is refused even with `allowedHosts: true`, and
 * `inspector: false` leaves no route.
 *
 * A client on another machine is a network namespace of this test's own, joined to the host by a
 * veth pair: as root only (skipped with the reason otherwise).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { captureLogger, DIST, REPO } from '../helpers/hosts.js';

const run = promisify(execFile);
const TMP = path.join(REPO, 'test/.tmp');
let serial = 0;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: any;
}

/** One HTTP request with exactly these headers (Node's fetch would add its own). */
function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {
          // not JSON (the page)
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      // An event stream never ends: its headers are the answer.
      if (String(res.headers['content-type']).startsWith('text/event-stream')) {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: '', json: null });
        req.destroy();
      }
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  send(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });

interface Project {
  dir: string;
  /** Written (one line per call) by the function-form config of agent `fn`. */
  marker: string;
  /** The state the blocking scorer shares with this test (same process: Vite's module runner). */
  gate: { active: number; max: number; started: number; released: Promise<void>; release: () => void };
}

/** A project with a function-form agent that leaves a marker, a blocking scorer, and plain ones. */
function makeProject(name: string, extra: Record<string, string> = {}): Project {
  const dir = path.join(TMP, `${name}-${process.pid}-${Date.now()}-${serial++}`);
  const agents = path.join(dir, 'src/mastra/agents');
  const marker = path.join(dir, 'fn-called.txt');
  const gateKey = `__agentScorersGate_${path.basename(dir).replace(/\W/g, '_')}`;
  const files: Record<string, string> = {
    'fn/config.ts': `import fs from 'node:fs';
export default {
  scorers: ({ requestContext }: { requestContext?: Map<string, unknown> }) => {
    fs.appendFileSync(${JSON.stringify(marker)}, 'called\\n');
    return requestContext?.get('tier') === 'premium' ? { sla: { scorer: { id: 'sla', run: async () => ({ score: 1 }) } } } : {};
  },
};
`,
    'fnthrow/config.ts': `export default {
  scorers: () => {
    throw new Error('no tier given');
  },
};
`,
    'slow/scorers/block.ts': `const gate = (globalThis as any)[${JSON.stringify(gateKey)}];
export default {
  id: 'block',
  run: async () => {
    gate.active++;
    gate.started++;
    gate.max = Math.max(gate.max, gate.active);
    try {
      await gate.released;
    } finally {
      gate.active--;
    }
    return { score: 1, reason: 'released' };
  },
};
`,
    'plain/scorers/ok.ts': "export default { id: 'ok', run: async () => ({ score: 0.5, reason: 'fine' }) };\n",
    ...extra,
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(agents, rel)), { recursive: true });
    fs.writeFileSync(path.join(agents, rel), text);
  }
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const gate = { active: 0, max: 0, started: 0, released, release };
  (globalThis as any)[gateKey] = gate;
  return { dir, marker, gate };
}

const markerCalls = (project: Project) => (fs.existsSync(project.marker) ? fs.readFileSync(project.marker, 'utf8').split('\n').filter(Boolean).length : 0);

interface Dev {
  server: any;
  /** `http://127.0.0.1:<port>/__agent-scorers/` */
  inspector: string;
  port: number;
  logs: string[];
  close: () => Promise<void>;
}

async function startDev(project: Project, pluginOptions: object, server: object = {}, viteName: 'vite' | 'vite7' = 'vite'): Promise<Dev> {
  const vite: any = viteName === 'vite' ? await import('vite') : await import('vite7');
  const agentScorers = (await import(pathToFileURL(path.join(DIST, 'plugin/vite.js')).href)).default;
  const logs: string[] = [];
  const dev = await vite.createServer({
    root: project.dir,
    configFile: false,
    customLogger: captureLogger(vite, logs),
    plugins: [agentScorers({ dts: false, cache: false, ...pluginOptions })],
    server: { host: '127.0.0.1', port: 0, ...server },
  });
  await dev.listen();
  dev.printUrls(); // what the `vite` CLI does after listening
  const port = (dev.httpServer!.address() as { port: number }).port;
  return {
    server: dev,
    inspector: `http://127.0.0.1:${port}/__agent-scorers/`,
    port,
    logs,
    close: async () => {
      await dev.close();
    },
  };
}

const ROUTES: Array<{ route: string; method: string; body?: unknown }> = [
  { route: '', method: 'GET' },
  { route: '/', method: 'GET' },
  { route: '/index.html', method: 'HEAD' },
  { route: '/api/state', method: 'GET' },
  { route: '/api/events', method: 'GET' },
  { route: '/api/scorers', method: 'POST', body: { agent: 'fn' } },
  { route: '/api/scorers', method: 'GET' },
  { route: '/api/run', method: 'POST', body: { agent: 'plain', key: 'ok', input: 'q', output: 'a' } },
  { route: '/api/nothing-here', method: 'GET' },
];

function routeRequest(inspector: string, { route, method, body }: (typeof ROUTES)[number], headers: Record<string, string>) {
  const url = inspector.slice(0, -1) + route;
  return body === undefined
    ? send(url, { method, headers })
    : send(url, { method, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

describe('dev inspector security (Vite 8, real HTTP)', () => {
  let project: Project;
  let dev: Dev;

  beforeAll(async () => {
    project = makeProject('inspector-security');
    dev = await startDev(project, {});
  });

  afterAll(async () => {
    project?.gate.release();
    await dev?.close();
    if (project) fs.rmSync(project.dir, { recursive: true, force: true });
  });

  test('on loopback the start-up line gives the URL and nothing about other machines', () => {
    const lines = dev.logs.filter((line) => line.includes('Scorers:'));
    expect(lines).toEqual([`info:   ➜  Scorers: ${dev.inspector}`]);
  });

  test('every route refuses another site, another local origin and a foreign or null Origin, and runs nothing', async () => {
    const own = `http://127.0.0.1:${dev.port}`;
    const refusedHeaders: Array<Record<string, string>> = [
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
      // Another local dev server's page: Vite's CORS default lets it through, we do not.
      { Origin: 'http://localhost:5173' },
      { Origin: `http://127.0.0.1:${dev.port + 1}` },
      { Origin: 'https://evil.example' },
      { Origin: 'null' },
      { Origin: `${own}`, 'Sec-Fetch-Site': 'same-site' },
    ];
    for (const route of ROUTES) {
      for (const headers of refusedHeaders) {
        const answer = await routeRequest(dev.inspector, route, headers);
        expect(answer.status, `${route.method} ${route.route} ${JSON.stringify(headers)}`).toBe(403);
        if (route.method !== 'HEAD') expect(answer.json?.error, route.route).toMatch(/refused/);
      }
    }
    expect(markerCalls(project)).toBe(0);
    expect(project.gate.started).toBe(0);
  });

  test('the own page, a typed URL and a client without Fetch Metadata are served', async () => {
    const own = `http://127.0.0.1:${dev.port}`;
    const allowed: Array<Record<string, string>> = [{}, { 'Sec-Fetch-Site': 'none' }, { 'Sec-Fetch-Site': 'same-origin' }, { 'Sec-Fetch-Site': 'same-origin', Origin: own }];
    for (const headers of allowed) {
      const page = await send(dev.inspector, { headers });
      expect(page.status, JSON.stringify(headers)).toBe(200);
      expect(page.text).toContain('<html');
      expect((await send(`${dev.inspector}api/state`, { headers })).status).toBe(200);
      const ran = await postJson(`${dev.inspector}api/run`, { agent: 'plain', key: 'ok', input: 'q', output: 'a' }, headers);
      expect(ran.status).toBe(200);
      expect(ran.json).toMatchObject({ score: 0.5, reason: 'fine' });
    }
  });

  test('a GET on a route that runs user code is 405 with Allow: POST, and the config function is not called', async () => {
    const calls = markerCalls(project);
    for (const route of ['api/scorers?agent=fn', 'api/scorers?agent=fn&requestContext=%7B%22tier%22%3A%22premium%22%7D', 'api/run']) {
      const answer = await send(dev.inspector + route);
      expect(answer.status, route).toBe(405);
      expect(answer.headers.allow, route).toBe('POST');
      expect(answer.json.error).toBe('Method GET is not allowed here; use POST.');
    }
    // Not JSON: 415 before anything is read or run.
    const form = await send(`${dev.inspector}api/scorers`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'agent=fn' });
    expect(form.status).toBe(415);
    const plain = await send(`${dev.inspector}api/scorers`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{"agent":"fn"}' });
    expect(plain.status).toBe(415);
    expect(markerCalls(project)).toBe(calls);

    // The marker does record a call: the JSON POST resolves the function form, with its context.
    const listed = await postJson(`${dev.inspector}api/scorers`, { agent: 'fn', requestContext: { tier: 'premium' } });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json).toEqual({ agent: 'fn', scorers: [{ key: 'sla', id: 'sla', name: null, description: null, sampling: null }] });
    expect(markerCalls(project)).toBe(calls + 1);
    const bad = await postJson(`${dev.inspector}api/scorers`, { agent: 'fn', requestContext: [1] });
    expect(bad.status).toBe(400);
    expect(markerCalls(project)).toBe(calls + 1);
  });

  test('a body over 1 MiB is 413 on both POST routes, and runs nothing', async () => {
    const calls = markerCalls(project);
    const big = 'a'.repeat(1024 * 1024 + 1);
    for (const [route, body] of [
      ['api/run', { agent: 'slow', key: 'block', input: 'q', output: big }],
      ['api/scorers', { agent: 'fn', requestContext: { big } }],
    ] as const) {
      const answer = await postJson(dev.inspector + route, body);
      expect(answer.status, route).toBe(413);
      expect(answer.json.error).toBe('Request body is larger than 1048576 bytes.');
    }
    expect(markerCalls(project)).toBe(calls);
    expect(project.gate.started).toBe(0);
  });

  test('at most 4 scorer runs at once, 16 waiting, the rest 429 with Retry-After', async () => {
    const body = { agent: 'slow', key: 'block', input: 'q', output: 'a' };
    const answers: Answer[] = [];
    const all = Array.from({ length: 50 }, () => postJson(`${dev.inspector}api/run`, body).then((a) => void answers.push(a)));
    // Every refused request is answered while the four running ones still hold their slots.
    await expect.poll(() => answers.length, { timeout: 20_000 }).toBe(30);
    await expect.poll(() => project.gate.started, { timeout: 20_000 }).toBe(4);
    expect(answers.every((a) => a.status === 429)).toBe(true);
    expect(new Set(answers.map((a) => a.headers['retry-after']))).toEqual(new Set(['2']));
    expect(answers[0].json.error).toBe('Too many scorer runs at once (4 running, 16 waiting); try again in 2 s.');
    project.gate.release();
    await Promise.all(all);
    const ran = answers.filter((a) => a.status === 200);
    expect(ran).toHaveLength(20);
    expect(ran.every((a) => a.json.reason === 'released')).toBe(true);
    expect(project.gate.started).toBe(20);
    expect(project.gate.max).toBe(4);
    expect(project.gate.active).toBe(0);
    // The slots are free again.
    expect((await postJson(`${dev.inspector}api/run`, body)).status).toBe(200);
  });

  test('a function-form config that throws is named by its file, with no absolute path and no stack', async () => {
    const answer = await postJson(`${dev.inspector}api/scorers`, { agent: 'fnthrow' });
    expect(answer.status).toBe(500);
    expect(answer.json.error).toBe('Could not resolve the scorers of agent "fnthrow": src/mastra/agents/fnthrow/config.ts: no tier given');
  });
});

describe('dev inspector errors name the file', () => {
  let project: Project;
  let dev: Dev;

  beforeAll(async () => {
    project = makeProject('inspector-throws', {
      'boom/config.ts': "export default { scorers: {} };\nthrow new Error('config exploded at import');\n",
      'boom/scorers/fuse.ts': "export default { id: 'fuse', run: async () => ({ score: 1 }) };\n",
      'cf/scorers/edge.ts': "import { env } from 'cloudflare:workers';\nexport default { id: 'edge', run: async () => ({ score: env ? 1 : 0 }) };\n",
    });
    dev = await startDev(project, {});
  });

  afterAll(async () => {
    await dev?.close();
    if (project) fs.rmSync(project.dir, { recursive: true, force: true });
  });

  test('a config that throws at import: its root-relative path and message, no absolute path, no stack; other agents still run', async () => {
    for (const [route, body] of [
      ['api/run', { agent: 'boom', key: 'fuse', input: 'q', output: 'a' }],
      ['api/scorers', { agent: 'boom' }],
    ] as const) {
      const answer = await postJson(dev.inspector + route, body);
      expect(answer.status, route).toBe(500);
      expect(answer.json).toEqual({ error: 'Could not load the config of agent "boom": src/mastra/agents/boom/config.ts: config exploded at import' });
      expect(answer.text).not.toContain(REPO);
      expect(answer.text).not.toMatch(/\bat .*:\d+:\d+/);
    }
    // A run loads only what it needs: the broken config of another agent does not matter.
    const other = await postJson(`${dev.inspector}api/run`, { agent: 'plain', key: 'ok', input: 'q', output: 'a' });
    expect(other.status, other.text).toBe(200);
    expect(other.json.score).toBe(0.5);
    expect((await postJson(`${dev.inspector}api/scorers`, { agent: 'fn', requestContext: { tier: 'premium' } })).json.scorers.map((s: { key: string }) => s.key)).toEqual(['sla']);
  });

  test('a scorer file that cannot load here (it imports cloudflare:workers, and this app runs in Node) is named; the others run', async () => {
    const failing = await postJson(`${dev.inspector}api/run`, { agent: 'cf', key: 'edge', input: 'q', output: 'a' });
    expect(failing.status).toBe(500);
    expect(failing.json.error).toMatch(/^Could not load scorer "edge" of agent "cf": src\/mastra\/agents\/cf\/scorers\/edge\.ts: .*cloudflare:workers/);
    expect(failing.text).not.toContain(REPO);
    const listed = await postJson(`${dev.inspector}api/scorers`, { agent: 'cf' });
    expect(listed.status).toBe(200);
    expect(listed.json.scorers).toEqual([]);
    expect(listed.json.failed).toHaveLength(1);
    expect(listed.json.failed[0].key).toBe('edge');
    expect(listed.json.failed[0].error).toMatch(/^Could not load scorer "edge": src\/mastra\/agents\/cf\/scorers\/edge\.ts: /);
    const other = await postJson(`${dev.inspector}api/run`, { agent: 'plain', key: 'ok', input: 'q', output: 'a' });
    expect(other.status, other.text).toBe(200);
  });

  test('the state says where scorers run: the ssr environment, in Node', async () => {
    const state = await send(`${dev.inspector}api/state`);
    expect(state.json.runs).toEqual({ environment: 'ssr', runtime: 'node', how: 'runner', note: null });
  });

  test('a config that does not parse: named by its file, no absolute path', async () => {
    const file = path.join(project.dir, 'src/mastra/agents/boom/config.ts');
    fs.writeFileSync(file, 'export default { scorers: {} \nconst = ;\n');
    const answer = await (async () => {
      for (let i = 0; i < 200; i++) {
        const a = await postJson(`${dev.inspector}api/run`, { agent: 'boom', key: 'fuse', input: 'q', output: 'a' });
        if (!String(a.json?.error).includes('exploded')) return a;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('the edit never showed');
    })();
    expect(answer.status).toBe(500);
    expect(answer.json.error).toMatch(/^Could not load the config of agent "boom": src\/mastra\/agents\/boom\/config\.ts: /);
    expect(answer.text).not.toContain(REPO);
    expect(answer.text).not.toMatch(/\bat .*:\d+:\d+\)?\n/);
    expect((await postJson(`${dev.inspector}api/run`, { agent: 'plain', key: 'ok', input: 'q', output: 'a' })).status).toBe(200);
  });
});

describe('runs are bounded in Node (inspector.runTimeout)', () => {
  let project: Project;
  let dev: Dev;
  const counterKey = `__agentScorersHangs_${process.pid}_${serial}`;
  const hangs = () => ((globalThis as any)[counterKey] as { started: number }).started;

  beforeAll(async () => {
    (globalThis as any)[counterKey] = { started: 0 };
    project = makeProject('inspector-bounded', {
      // A promise that never settles: nothing in this process can cancel it.
      'stuck/scorers/hang.ts': `export default { id: 'hang', run: () => { (globalThis as any)[${JSON.stringify(counterKey)}].started++; return new Promise(() => {}); } };\n`,
      'stuckfn/config.ts': 'export default { scorers: () => new Promise(() => {}) };\n',
    });
    dev = await startDev(project, { inspector: { runTimeout: 1000 } });
  });

  afterAll(async () => {
    await dev?.close();
    if (project) fs.rmSync(project.dir, { recursive: true, force: true });
  });

  test('four runs that never settle are answered with an error naming the scorer and free their slots; a run queued behind them is answered, twice over', async () => {
    const hang = { agent: 'stuck', key: 'hang', input: 'q', output: 'a' };
    const quick = { agent: 'plain', key: 'ok', input: 'q', output: 'a' };
    for (const round of [1, 2]) {
      const order: string[] = [];
      const hung = Array.from({ length: 4 }, () => postJson(`${dev.inspector}api/run`, hang).then((a) => (order.push('hang'), a)));
      // All four slots are held (the abandoned runs of round 1 hold none), so the quick run waits for one.
      await expect.poll(hangs, { timeout: 10_000 }).toBe(4 * round);
      const queued = postJson(`${dev.inspector}api/run`, quick).then((a) => (order.push('quick'), a));
      for (const answer of await Promise.all(hung)) {
        expect(answer.status).toBe(504);
        expect(answer.json).toEqual({
          error:
            'Scorer "hang" of agent "stuck" did not finish within 1 s (inspector.runTimeout), so the inspector stopped waiting for it; it may still be running in the "ssr" environment (Node). Other runs are not affected.',
        });
      }
      const ran = await queued;
      expect(ran.status, ran.text).toBe(200);
      expect(ran.json).toMatchObject({ score: 0.5, reason: 'fine' });
      // It ran only once a timed-out run gave its slot up.
      expect(order[0]).toBe('hang');
      expect(order).toHaveLength(5);
    }
  });

  test('a function-form config that never settles: the listing is answered naming the agent, and the next listing works', async () => {
    const answer = await postJson(`${dev.inspector}api/scorers`, { agent: 'stuckfn' });
    expect(answer.status).toBe(504);
    expect(answer.json.error).toBe(
      'Listing the scorers of agent "stuckfn" did not finish within 1 s (inspector.runTimeout), so the inspector stopped waiting for it; it may still be running in the "ssr" environment (Node). Other runs are not affected.',
    );
    const listed = await postJson(`${dev.inspector}api/scorers`, { agent: 'plain' });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json.scorers.map((s: { key: string }) => s.key)).toEqual(['ok']);
  });

  // Last here: the restarted server listens on a new port.
  test('a restart of the dev server answers the runs it would otherwise drop, before it closes their connections', async () => {
    const before = hangs();
    const hung = postJson(`${dev.inspector}api/run`, { agent: 'stuck', key: 'hang', input: 'q', output: 'a' });
    await expect.poll(hangs, { timeout: 10_000 }).toBe(before + 1);
    const restarted = dev.server.restart();
    const answer = await hung;
    expect(answer.status).toBe(503);
    expect(answer.json).toEqual({
      error:
        'Scorer "hang" of agent "stuck" never finished: the dev server is restarting or closing (its config changed, you asked for it, or workerd restarted after a crash, such as running out of memory). Run it again once the server is back.',
      restarted: true,
    });
    await restarted;
    const port = (dev.server.httpServer.address() as { port: number }).port;
    const ran = await postJson(`http://127.0.0.1:${port}/__agent-scorers/api/run`, { agent: 'plain', key: 'ok', input: 'q', output: 'a' });
    expect(ran.status, ran.text).toBe(200);
  });
});

describe('a DNS-rebinding request from this machine (server.allowedHosts: true)', () => {
  const opened: Array<{ dev?: Dev; project: Project }> = [];
  const open = async (name: string, pluginOptions: object) => {
    const project = makeProject(name);
    const entry: { dev?: Dev; project: Project } = { project };
    opened.push(entry);
    entry.dev = await startDev(project, pluginOptions, { allowedHosts: true });
    return { project, dev: entry.dev };
  };

  afterAll(async () => {
    for (const { dev, project } of opened) {
      await dev?.close();
      fs.rmSync(project.dir, { recursive: true, force: true });
    }
  });

  /** What a page on rebind.example sends once its name points at 127.0.0.1: its own origin, in every header. */
  const rebound = (port: number) => ({ Host: `rebind.example:${port}`, Origin: `http://rebind.example:${port}`, 'Sec-Fetch-Site': 'same-origin' });
  const routes = [
    { route: '/', method: 'GET' },
    { route: '/api/state', method: 'GET' },
    { route: '/api/events', method: 'GET' },
    { route: '/api/scorers', method: 'POST', body: { agent: 'fn' } },
    { route: '/api/run', method: 'POST', body: { agent: 'slow', key: 'block', input: 'q', output: 'a' } },
  ];

  test('is refused on every route, the page, the manifest, a listing and a run, with how to allow it; nothing runs', async () => {
    const { project, dev } = await open('inspector-rebind-local', {});
    for (const route of routes) {
      const answer = await routeRequest(dev.inspector, route, rebound(dev.port));
      expect(answer.status, route.route).toBe(403);
      expect(answer.json, route.route).toEqual({
        error:
          'Requests for host "rebind.example" are refused: it is neither this machine\'s loopback nor an address this server listens on, which is how a DNS-rebinding page on another site would arrive. To use the inspector under this name, set inspector: { remote: true } in the agent-scorers plugin options.',
      });
      expect(answer.text).not.toContain('"manifest"');
    }
    expect(markerCalls(project)).toBe(0);
    expect(project.gate.started).toBe(0);
    // Loopback names and addresses, in any spelling a browser sends, are this machine.
    for (const host of [`localhost:${dev.port}`, `LocalHost.:${dev.port}`, `app.localhost:${dev.port}`, `127.0.0.1:${dev.port}`, `127.1.2.3:${dev.port}`, `[::1]:${dev.port}`]) {
      const state = await send(`${dev.inspector}api/state`, { headers: { Host: host } });
      expect(state.status, host).toBe(200);
      expect(state.json.manifest.agents).toHaveProperty('plain');
    }
    const ran = await postJson(`${dev.inspector}api/run`, { agent: 'plain', key: 'ok', input: 'q', output: 'a' }, { Host: `localhost:${dev.port}` });
    expect(ran.status, ran.text).toBe(200);
  });

  test('inspector: { remote: true } lifts it', async () => {
    const { project, dev } = await open('inspector-rebind-remote', { inspector: { remote: true } });
    const state = await send(`${dev.inspector}api/state`, { headers: rebound(dev.port) });
    expect(state.status).toBe(200);
    const listed = await postJson(`${dev.inspector}api/scorers`, { agent: 'fn' }, rebound(dev.port));
    expect(listed.status, listed.text).toBe(200);
    expect(markerCalls(project)).toBe(1);
  });
});

describe('dev inspector security on Vite 7', () => {
  let project: Project;
  let dev: Dev;

  beforeAll(async () => {
    project = makeProject('inspector-security-vite7');
    dev = await startDev(project, {}, {}, 'vite7');
  });

  afterAll(async () => {
    await dev?.close();
    if (project) fs.rmSync(project.dir, { recursive: true, force: true });
  });

  test('another local origin is refused, a GET runs nothing, a JSON POST runs', async () => {
    for (const headers of [{ 'Sec-Fetch-Site': 'same-site' }, { Origin: 'http://localhost:5173' }] as Array<Record<string, string>>) {
      expect((await send(dev.inspector, { headers })).status).toBe(403);
      expect((await postJson(`${dev.inspector}api/run`, { agent: 'plain', key: 'ok', input: 'q', output: 'a' }, headers)).status).toBe(403);
    }
    const get = await send(`${dev.inspector}api/scorers?agent=fn`);
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect(markerCalls(project)).toBe(0);
    expect((await postJson(`${dev.inspector}api/scorers`, { agent: 'fn' })).status).toBe(200);
    expect(markerCalls(project)).toBe(1);
    const ran = await postJson(`${dev.inspector}api/run`, { agent: 'plain', key: 'ok', input: 'q', output: 'a' });
    expect(ran.json).toMatchObject({ score: 0.5, reason: 'fine' });
  });
});

describe('inspector: false', () => {
  let project: Project;
  let dev: Dev;

  beforeAll(async () => {
    project = makeProject('inspector-off');
    dev = await startDev(project, { inspector: false });
  });

  afterAll(async () => {
    await dev?.close();
    if (project) fs.rmSync(project.dir, { recursive: true, force: true });
  });

  test('no route answers, nothing runs, and no start-up line', async () => {
    for (const route of ROUTES.filter((r) => r.method !== 'HEAD')) {
      const answer = await routeRequest(dev.inspector, route, {});
      expect(answer.status, `${route.method} ${route.route}`).toBe(404);
    }
    const scorers = await postJson(`${dev.inspector}api/scorers`, { agent: 'fn' });
    expect(scorers.status).toBe(404);
    expect(markerCalls(project)).toBe(0);
    expect(project.gate.started).toBe(0);
    expect(dev.logs.join('\n')).not.toContain('Scorers');
    expect(dev.logs.join('\n')).toContain(`http://127.0.0.1:${dev.port}/`);
  });
});

// ---------------------------------------------------------------------------------------------
// A client on another machine: a network namespace with a veth pair, as root.

async function netnsUnavailable(): Promise<string | null> {
  if (process.platform !== 'linux') return 'network namespaces are Linux only';
  if (process.getuid?.() !== 0) return 'creating a network namespace needs root';
  try {
    await run('ip', ['-V']);
  } catch {
    return 'iproute2 (`ip`) is not installed (apt-get install -y iproute2)';
  }
  try {
    await run('curl', ['--version']);
  } catch {
    return 'curl is not installed';
  }
  // Root in a container may still lack the capability to make one.
  const probe = `as-probe-${process.pid}`;
  try {
    await run('ip', ['netns', 'add', probe]);
  } catch (error) {
    return `\`ip netns add\` fails here (${String((error as { stderr?: unknown }).stderr ?? error).trim()})`;
  }
  await run('ip', ['netns', 'del', probe]).catch(() => {});
  return null;
}

const whyNoNetns = await netnsUnavailable();
if (whyNoNetns) console.warn(`inspector remote-client tests skipped: ${whyNoNetns}.`);

interface Namespace {
  /** The host's address on the veth pair (where the dev server is reached from the namespace). */
  host: string;
  /** curl from inside the namespace: status, headers and body. */
  curl: (url: string, args?: string[]) => Promise<{ status: number; body: string }>;
  remove: () => Promise<void>;
}

async function makeNamespace(): Promise<Namespace> {
  const id = `${process.pid % 100000}${serial++}`;
  const name = `as-insp-${id}`;
  // Interface names are at most 15 characters.
  const outside = `asi${id}a`.slice(0, 15);
  const inside = `asi${id}b`.slice(0, 15);
  const subnet = `10.200.${(process.pid + serial) % 250}`;
  const ip = (...args: string[]) => run('ip', args);
  const remove = async () => {
    await ip('link', 'del', outside).catch(() => {});
    await ip('netns', 'del', name).catch(() => {});
  };
  try {
    await ip('netns', 'add', name);
    await ip('link', 'add', outside, 'type', 'veth', 'peer', 'name', inside);
    await ip('link', 'set', inside, 'netns', name);
    await ip('addr', 'add', `${subnet}.1/24`, 'dev', outside);
    await ip('link', 'set', outside, 'up');
    await ip('netns', 'exec', name, 'ip', 'addr', 'add', `${subnet}.2/24`, 'dev', inside);
    await ip('netns', 'exec', name, 'ip', 'link', 'set', inside, 'up');
    await ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
  } catch (error) {
    await remove();
    throw error;
  }
  return {
    host: `${subnet}.1`,
    curl: async (url, args = []) => {
      const { stdout } = await run('ip', ['netns', 'exec', name, 'curl', '-sS', '--max-time', '20', '-o', '-', '-w', '\n%{http_code}', ...args, url]);
      const at = stdout.lastIndexOf('\n');
      return { status: Number(stdout.slice(at + 1)), body: stdout.slice(0, at) };
    },
    remove,
  };
}

describe.skipIf(whyNoNetns !== null)('dev inspector and a client on another machine (network namespace)', () => {
  let ns: Namespace | undefined;
  const opened: Array<{ dev?: Dev; project: Project }> = [];

  beforeAll(async () => {
    ns = await makeNamespace();
  });

  afterAll(async () => {
    for (const { dev, project } of opened) {
      project.gate.release();
      await dev?.close();
      fs.rmSync(project.dir, { recursive: true, force: true });
    }
    await ns?.remove();
  });

  async function open(name: string, pluginOptions: object, server: object) {
    const project = makeProject(name);
    const entry: { dev?: Dev; project: Project } = { project };
    opened.push(entry);
    const dev = await startDev(project, pluginOptions, server);
    entry.dev = dev;
    return { project, dev, base: `http://${ns!.host}:${dev.port}/__agent-scorers/` };
  }

  const runBody = JSON.stringify({ agent: 'plain', key: 'ok', input: 'q', output: 'a' });
  const postArgs = (body: string) => ['-X', 'POST', '-H', 'Content-Type: application/json', '--data-binary', body];

  test.each([
    ['0.0.0.0', { host: '0.0.0.0' }],
    ['true', { host: true }],
    ['the veth address', 'veth'],
  ] as const)('server.host %s: refused by default with how to allow it; this machine still served', async (_label, serverOptions) => {
    const server = serverOptions === 'veth' ? { host: ns!.host } : serverOptions;
    const { project, dev, base } = await open('inspector-remote-off', {}, server);
    for (const [route, args] of [
      ['', []],
      ['api/state', []],
      ['api/run', postArgs(runBody)],
      ['api/scorers', postArgs(JSON.stringify({ agent: 'fn' }))],
    ] as const) {
      const answer = await ns!.curl(base + route, [...args]);
      expect(answer.status, route).toBe(403);
      expect(JSON.parse(answer.body).error, route).toBe(
        'The agent-scorers inspector answers only this machine. To allow other machines, set inspector: { remote: true } in the agent-scorers plugin options.',
      );
    }
    expect(markerCalls(project)).toBe(0);
    // From this machine, through the same listening address.
    const local = await postJson(`http://${ns!.host}:${dev.port}/__agent-scorers/api/run`, JSON.parse(runBody));
    expect(local.status).toBe(200);
    // The start-up line says the inspector is for this machine only, and how to open it.
    const lines = dev.logs.filter((line) => line.includes('Scorers:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^info: {3}➜ {2}Scorers: http:\/\/\S+\/__agent-scorers\/ \(this machine only\. To allow other machines, set inspector: \{ remote: true \} in the agent-scorers plugin options\.\)$/);
  });

  test('an IP literal or an allowed name in the Host header does not widen it (allowedHosts: true)', async () => {
    const { project, dev, base } = await open('inspector-rebind', {}, { host: '0.0.0.0', allowedHosts: true });
    const port = dev.port;
    for (const headers of [
      ['-H', `Host: 127.0.0.1:${port}`],
      ['-H', `Host: localhost:${port}`],
      ['-H', `Host: rebind.example:${port}`, '-H', `Origin: http://rebind.example:${port}`, '-H', 'Sec-Fetch-Site: same-origin'],
    ]) {
      for (const [route, args] of [
        ['api/run', postArgs(runBody)],
        ['api/scorers', postArgs(JSON.stringify({ agent: 'fn' }))],
        ['api/state', []],
      ] as const) {
        const answer = await ns!.curl(base + route, [...headers, ...args]);
        expect(answer.status, `${route} ${headers.join(' ')}`).toBe(403);
        expect(answer.body).toContain('inspector: { remote: true }');
      }
    }
    expect(markerCalls(project)).toBe(0);
  });

  test('inspector: { remote: true } serves other machines, and the start-up lines say so', async () => {
    const { project, dev, base } = await open('inspector-remote-on', { inspector: { remote: true } }, { host: '0.0.0.0' });
    const ran = await ns!.curl(`${base}api/run`, postArgs(runBody));
    expect(ran.status).toBe(200);
    expect(JSON.parse(ran.body)).toMatchObject({ score: 0.5, reason: 'fine' });
    const listed = await ns!.curl(`${base}api/scorers`, postArgs(JSON.stringify({ agent: 'fn' })));
    expect(listed.status).toBe(200);
    expect(markerCalls(project)).toBe(1);
    // Still never another origin, from anywhere.
    const cross = await ns!.curl(`${base}api/run`, ['-H', 'Sec-Fetch-Site: cross-site', ...postArgs(runBody)]);
    expect(cross.status).toBe(403);
    const lines = dev.logs.filter((line) => line.includes('Scorers:'));
    expect(lines[0]).toBe(`info:   ➜  Scorers: http://localhost:${dev.port}/__agent-scorers/`);
    expect(lines).toContain(`info:   ➜  Scorers: http://${ns!.host}:${dev.port}/__agent-scorers/ (other machines allowed: inspector.remote is on)`);
  });
});
