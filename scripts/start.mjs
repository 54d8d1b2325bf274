// `npm start`: the local service on http://127.0.0.1:8001 and the partner demo on
// http://localhost:8000 (another site, so the iframe is truly cross-site). Ctrl-C stops both.
//
// Environment: VIDEO_PLUGIN_PORT (service port), DEMO_PORT (demo port), VIDEO_PLUGIN_JOB_MS (how
// long a topic search or a generation takes; default 5000).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = [
  'dist/service/server.js',
  'dist/service/launcher.js',
  'dist/server/index.js',
  'dist/cdn/video-plugin.min.js',
  'dist/service/public/app.js',
];
if (built.some((file) => !existsSync(new URL(`../${file}`, import.meta.url)))) {
  console.log('Building video-plugin first (npm run build)…');
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
}

// On Linux with glibc, Node runs once more with MALLOC_ARENA_MAX set (packages/service/src/launcher.ts):
// the service and the demo run in that child; this process only waits, and ends as the child ends.
const { relaunchWithArenaLimit } = await import('../dist/service/launcher.js');
if (relaunchWithArenaLimit()) await new Promise(() => {});

const { startService } = await import('../dist/service/server.js');
const { startDemo } = await import('../demo/server.mjs');

const servicePort = Number(process.env.VIDEO_PLUGIN_PORT ?? 8001);
const demoPort = Number(process.env.DEMO_PORT ?? 8000);
const jobMs = Number(process.env.VIDEO_PLUGIN_JOB_MS ?? 5000);

function explain(error, what, port, variable) {
  if (error?.code === 'EADDRINUSE') {
    console.error(
      `Port ${port} is in use, so the ${what} cannot start. Stop what uses it, or set ${variable}=<another port>.`,
    );
  } else {
    console.error(`The ${what} could not start: ${error?.message ?? error}`);
  }
  process.exit(1);
}

// The sample business website is the demo's own (/business/): searches may read the demo's
// port, and no other port of this machine (any, when DEMO_PORT=0 leaves the port to the system).
const allowLoopbackSources = demoPort === 0 ? true : [demoPort];
const service = await startService({ port: servicePort, host: '127.0.0.1', jobMs, allowLoopbackSources }).catch(
  (error) => explain(error, 'local service', servicePort, 'VIDEO_PLUGIN_PORT'),
);
const [partner] = service.partners;
const demo = await startDemo({
  port: demoPort,
  serviceURL: service.url,
  partnerID: partner.id,
  secret: partner.secret,
}).catch(async (error) => {
  await service.close();
  explain(error, 'partner demo', demoPort, 'DEMO_PORT');
});

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping…`);
  await Promise.allSettled([demo.close(), service.close()]);
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

// Printed last: whoever waits for it (a person, a test) may stop both at once.
console.log(`
  video-plugin is running.

  Partner demo   ${demo.url}
                 a partner's page with <video-plugin>; its server mints tokens with video-plugin/server
  Local service  ${service.url}
                 the pages inside the iframe and their API (partner "${partner.id}", jobs take ${jobMs} ms)

  Open ${demo.url} and try, in order:
    1. createAccount                  a token from the demo's server logs a new user in
    2. startTopicSearch               reads the sample business website served by the demo
    3. startVideoGeneration           once the search is COMPLETE (status updates appear live)
    4. openPlugin({ generationRequestId }) → "Open in editor" inside the studio → rename, save, complete
  Every event and status update appears in the log on the right. Switch auth-mode, environment or
  service-url at the top (each change starts a new session).

  Press Ctrl-C to stop both.
`);
