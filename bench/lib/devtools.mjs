// What bench/run.mjs measures through the DevTools protocol: the leak phase (heap, live objects
// by prototype, a heap snapshot summed by kind) and `--profile`'s CPU profiles.
import { mkdirSync, writeFileSync } from 'node:fs';
import { round3 } from './figures.mjs';

/**
 * Collects garbage (twice: weak references and finalizers) and reads the page's JS heap. The
 * resource timing buffer is emptied first: the browser adds one entry per iframe load to the
 * parent page's timeline (up to 250, ~140 bytes each), which is not ours to release.
 */
async function heap(page, cdp) {
  await page.evaluate(() => window.performance.clearResourceTimings());
  for (let i = 0; i < 2; i++) await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return usedSize;
}

/** How many live objects have this prototype (after a collection): `queryObjects`. */
async function liveObjects(cdp, expression) {
  const { result: prototype } = await cdp.send('Runtime.evaluate', { expression });
  const { objects } = await cdp.send('Runtime.queryObjects', { prototypeObjectId: prototype.objectId });
  const { result } = await cdp.send('Runtime.callFunctionOn', {
    objectId: objects.objectId,
    functionDeclaration: 'function () { return this.length; }',
    returnByValue: true,
  });
  await cdp.send('Runtime.releaseObject', { objectId: objects.objectId });
  await cdp.send('Runtime.releaseObject', { objectId: prototype.objectId });
  return result.value;
}

async function objectCounts(page, cdp) {
  await heap(page, cdp);
  return {
    Plugin: await liveObjects(cdp, 'window.bench.prototypes.Plugin'),
    HostConnection: await liveObjects(cdp, 'window.bench.prototypes.HostConnection'),
    HTMLIFrameElement: await liveObjects(cdp, 'HTMLIFrameElement.prototype'),
    MessagePort: await liveObjects(cdp, 'MessagePort.prototype'),
  };
}

export async function leaks(page, cdp, cycles) {
  // Warm up first (JIT, caches, the first frame process) so that growth means retention.
  await page.evaluate(() => window.bench.leakCycles({ cycles: 20, count: false }));
  const before = { heap: await heap(page, cdp), objects: await objectCounts(page, cdp), kinds: await heapKinds(cdp) };
  const run = await page.evaluate((cycles) => window.bench.leakCycles({ cycles, count: true }), cycles);
  const after = { heap: await heap(page, cdp), objects: await objectCounts(page, cdp), kinds: await heapKinds(cdp) };
  const objectsLeft = Object.fromEntries(
    Object.keys(after.objects).map((name) => [name, after.objects[name] - before.objects[name]]),
  );
  const kindGrowth = {};
  for (const [kind, { count, bytes, byType }] of Object.entries(after.kinds)) {
    const was = before.kinds[kind];
    const types = Object.entries(byType)
      .map(([type, n]) => [type, n - (was.byType[type] ?? 0)])
      .filter(([, n]) => n !== 0);
    kindGrowth[kind] = { count: count - was.count, bytes: bytes - was.bytes, byType: Object.fromEntries(types) };
  }
  return {
    ...run,
    msPerCycle: round3(run.msPerCycle),
    heapBefore: before.heap,
    heapAfter: after.heap,
    heapGrowth: after.heap - before.heap,
    heapGrowthPerCycle: Math.round((after.heap - before.heap) / cycles),
    heapGrowthByKind: kindGrowth,
    objectsBefore: before.objects,
    objectsLeft,
  };
}

/**
 * A heap snapshot, summed in two kinds: objects a program can hold (JS objects, closures, strings,
 * arrays, DOM wrappers) and the engine's own (compiled code, shapes, V8 caches), which grows as
 * functions are optimized and is not a leak.
 */
async function heapKinds(cdp) {
  const chunks = [];
  const onChunk = ({ chunk }) => chunks.push(chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  const { snapshot, nodes, strings } = JSON.parse(chunks.join(''));
  const fields = snapshot.meta.node_fields;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((field) => fields.indexOf(field));
  const types = snapshot.meta.node_types[typeAt];
  const kinds = { objects: { count: 0, bytes: 0, byType: {} }, engine: { count: 0, bytes: 0, byType: {} } };
  for (let i = 0; i < nodes.length; i += fields.length) {
    const type = types[nodes[i + typeAt]];
    const name = strings[nodes[i + nameAt]];
    const engine = ['code', 'hidden', 'object shape', 'synthetic'].includes(type) || name.startsWith('system /');
    const kind = kinds[engine ? 'engine' : 'objects'];
    kind.count++;
    kind.bytes += nodes[i + sizeAt];
    kind.byType[type] = (kind.byType[type] ?? 0) + 1;
  }
  return kinds;
}

/**
 * CPU profiles of a loop of `subject`'s calls (`--profile-subject`; `Plugin#getVideos` unless told), on
 * the host page and in the service frame (its own process): the functions with the most self time
 * on each side.
 */
export async function profileCalls(page, cdp, browser, { subject, serviceOrigin }) {
  const framePath =
    {
      'raw MessageChannel': '/bench/raw.html',
      'raw window.postMessage': '/bench/raw.html',
      'Penpal 7': '/bench/penpal.html',
      'SDK HostConnection.call': '/svc/plugin#',
    }[subject] ?? '/svc/plugin?partner=bench';
  const frameTarget = browser.targets().find((target) => target.url().startsWith(`${serviceOrigin}${framePath}`));
  const sides = [['host', cdp]];
  if (frameTarget) sides.push(['service frame', await frameTarget.createCDPSession()]);
  for (const [, session] of sides) {
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: 50 });
    await session.send('Profiler.start');
  }
  const msPerCall = await page.evaluate((subject) => window.bench.callLoop({ subject, calls: 5000 }), subject);
  const out = { subject, msPerCall: round3(msPerCall), sides: {} };
  mkdirSync(new URL('../results/', import.meta.url), { recursive: true });
  for (const [name, session] of sides) {
    const { profile: cpu } = await session.send('Profiler.stop');
    const file = `bench/results/${name.replace(/\W+/g, '-')}.cpuprofile`;
    writeFileSync(new URL(`../../${file}`, import.meta.url), JSON.stringify(cpu));
    out.sides[name] = { file, top: topFunctions(cpu) };
  }
  return out;
}

/** Self time per function, as shares of all samples (idle included, so the busy share shows). */
function topFunctions(cpu, count = 20) {
  const self = new Map();
  const byId = new Map(cpu.nodes.map((node) => [node.id, node]));
  let total = 0;
  cpu.samples.forEach((id, i) => {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const file = url.split('/').pop();
    const key = `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
    const dt = cpu.timeDeltas[i] ?? 0;
    total += dt;
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => ({ name, share: round3(us / total) }));
}
