// `npm run bench:fleet`: 20 generations at once (real media, 5 s, 20 different pages, so no scene
// comes from the cache) on the local service run three ways: one process on an SQLite data file,
// one process on PostgreSQL, and two processes on one PostgreSQL database (the requests sent to
// each in turn). Each configuration gets a new database, data file and media folder. Reports the
// wall time from the first request to the last generation COMPLETE, per configuration and run,
// and writes bench/results/fleet.json. It starts its own PostgreSQL server (Debian's initdb and
// pg_ctl, as the tests do; as root it runs as `nobody`) and removes it after.
//
//   node --import tsx bench/fleet.mts               3 runs of each configuration
//   node --import tsx bench/fleet.mts --runs 1      a smoke run
//   node --import tsx bench/fleet.mts --count 40    more generations at once
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAccountToken } from '../src/server/index.js';
import { follow } from '../packages/service/test/support/child-service.js';
import { launchPostgres, run } from '../packages/service/test/support/postgres-server.js';

const argument = (name: string, fallback: number) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback;
const RUNS = argument('--runs', 3);
const COUNT = argument('--count', 20);
const root = fileURLToPath(new URL('..', import.meta.url));
const PARTNER = 'bench-partner';
const SECRET = 'bench-partner-secret-0123456789abcdef';

const work = await mkdtemp(join(tmpdir(), 'video-plugin-bench-fleet-'));

// --- PostgreSQL, a server of this run's own (fsync on: figures for a database that keeps what it acknowledged) ---
const postgres = await launchPostgres({ fsync: true, user: 'bench' });
let databases = 0;
async function database(): Promise<string> {
  const name = `fleet_${++databases}`;
  await run('psql', [`postgres://bench@127.0.0.1:${postgres.port}/postgres`, '-qc', `CREATE DATABASE ${name}`]);
  return `postgres://bench@127.0.0.1:${postgres.port}/${name}`;
}

// --- the pages: one per generation, each different (its own words, so its own scenes) ---
const WORDS = ['harbor', 'juniper', 'saltmarsh', 'ortega', 'meadow', 'copper', 'lantern', 'willow'];
const site = createServer((req, res) => {
  const index = Number(req.url?.slice(1)) || 0;
  const name = `${WORDS[index % WORDS.length]} ${WORDS[(index * 3 + 1) % WORDS.length]} number ${index}`;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html lang="en"><head><title>The ${name} shop</title></head><body>
    <h1>The ${name} shop</h1><p>Since ${1950 + index}, the ${name} shop has opened six days a week.</p>
    <p>Ask for the ${WORDS[(index + 2) % WORDS.length]} special, made in batch ${index * 7}.</p></body></html>`);
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const source = `http://127.0.0.1:${(site.address() as { port: number }).port}`;

// --- the services ---
interface Service {
  url: string;
  child: ChildProcess;
}
async function startService(args: string[]): Promise<Service> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'packages/service/src/cli.ts',
      '--port',
      '0',
      '--partner',
      PARTNER,
      '--secret',
      SECRET,
      '--allow-loopback-sources',
      '--job-ms',
      '100',
      ...args,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, MALLOC_ARENA_MAX: '2' } },
  );
  const url = await follow(child).listening;
  return { url, child };
}
async function stopService({ child }: Service): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function call(service: Service, method: string, path: string, session?: string, body?: unknown) {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(session ? { authorization: `Bearer ${session}` } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a bench reads arbitrary JSON
  return (await response.json()) as Record<string, any>;
}

/** Until `done()` (a bench may poll: it measures, it does not prove). */
async function until(done: () => Promise<boolean>, what: string, ms = 600_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** One measurement: the services, `COUNT` topics searched first, then the generations at once. */
async function measure(label: string, services: Service[]): Promise<number> {
  const token = await createAccountToken({ partnerID: PARTNER, secret: SECRET, account: { companyName: 'Bench' } });
  const { session } = await call(services[0]!, 'POST', '/api/accounts', undefined, { token });
  const topics: string[] = [];
  for (let index = 0; index < COUNT; index++) {
    const on = services[index % services.length]!;
    topics.push((await call(on, 'POST', '/api/topics', session, { sourceURL: `${source}/${index}` })).topicId);
  }
  const read = (path: string) => call(services[0]!, 'GET', path, session);
  await until(
    async () =>
      (await Promise.all(topics.map((id) => read(`/api/topics/${id}`)))).every((t) => t.topic?.status === 'COMPLETE'),
    `${label}: topics`,
  );
  const started = performance.now();
  const requests = await Promise.all(
    topics.map(async (topicId, index) => {
      const on = services[index % services.length]!;
      const body = { topicId, aspectRatio: '16:9', duration: 5, language: 'en-GB' };
      const answer = await call(on, 'POST', '/api/generations', session, body);
      if (!answer.requestId) throw new Error(`${label}: ${JSON.stringify(answer)}`);
      return answer.requestId as string;
    }),
  );
  await until(async () => {
    const all = await Promise.all(requests.map((id) => read(`/api/generations/${id}`)));
    const failed = all.find((g) => g.generation?.status === 'FAILED');
    if (failed) throw new Error(`${label}: a generation failed: ${JSON.stringify(failed.generation.error)}`);
    return all.every((g) => g.generation?.status === 'COMPLETE');
  }, `${label}: generations`);
  return (performance.now() - started) / 1000;
}

const configurations: { label: string; start: () => Promise<Service[]> }[] = [
  {
    label: 'SQLite, 1 process',
    start: async () => {
      const place = await mkdtemp(join(work, 'sqlite-'));
      return [await startService(['--data', join(place, 'data.db'), '--media-dir', join(place, 'media')])];
    },
  },
  {
    label: 'PostgreSQL, 1 process',
    start: async () => {
      const place = await mkdtemp(join(work, 'pg1-'));
      return [await startService(['--database', await database(), '--media-dir', join(place, 'media')])];
    },
  },
  {
    label: 'PostgreSQL, 2 processes',
    start: async () => {
      const place = await mkdtemp(join(work, 'pg2-'));
      const url = await database();
      const args = ['--database', url, '--media-dir', join(place, 'media')];
      // One after the other: the first makes the schema, the second finds it.
      const first = await startService(args);
      return [first, await startService(args)];
    },
  },
];

const results: { label: string; seconds: number[]; load: number[] }[] = [];
try {
  for (const { label } of configurations) results.push({ label, seconds: [], load: [] });
  // Interleaved: each run measures every configuration once, so a change of load touches all alike.
  for (let index = 0; index < RUNS; index++) {
    for (const [position, configuration] of configurations.entries()) {
      const services = await configuration.start();
      try {
        const seconds = await measure(configuration.label, services);
        results[position]!.seconds.push(Number(seconds.toFixed(2)));
        const [load = 0] = loadavg();
        results[position]!.load.push(Number(load.toFixed(1)));
        console.log(
          `bench:fleet: run ${index + 1}/${RUNS}: ${configuration.label}: ${COUNT} generations in ${seconds.toFixed(2)} s (load ${load.toFixed(1)})`,
        );
      } finally {
        await Promise.all(services.map(stopService));
      }
    }
  }
} finally {
  site.close();
  await postgres.remove();
  await rm(work, { recursive: true, force: true, maxRetries: 5 });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log('\nconfiguration              median (s)   runs (s)');
for (const { label, seconds } of results) {
  console.log(`${label.padEnd(27)}${String(median(seconds)).padEnd(13)}${seconds.join(', ')}`);
}
const report = {
  command: `node --import tsx bench/fleet.mts --runs ${RUNS} --count ${COUNT}`,
  date: new Date().toISOString(),
  machine: { cores: cpus().length, memoryGB: Math.round(totalmem() / 1e9) },
  generations: COUNT,
  media: 'real, 5 s, 16:9, every page different (no scene from the cache)',
  results: results.map((result) => ({ ...result, median: median(result.seconds) })),
};
mkdirSync(new URL('results/', import.meta.url), { recursive: true });
writeFileSync(new URL('results/fleet.json', import.meta.url), `${JSON.stringify(report, null, 2)}\n`);
