// A web-test-runner plugin: starts the real local service (the same code `npm start` runs) on
// 127.0.0.1 for the browser tests, and gives the test pages what a partner back end would:
// the service URL and tokens minted by `video-plugin/server` (the secret stays in Node).
import { existsSync } from 'node:fs';

export function testServicePlugin() {
  let service;
  return {
    name: 'video-plugin-test-service',
    async serverStart() {
      const serverModule = new URL('../../dist/service/server.js', import.meta.url);
      if (!existsSync(serverModule)) return;
      const { startService } = await import(serverModule.href);
      service = await startService({ port: 0, host: '127.0.0.1', jobMs: 150, quiet: true });
    },
    async serverStop() {
      await service?.close();
    },
    async serve(context) {
      if (context.path !== '/__test/config') return undefined;
      return { body: JSON.stringify({ serviceURL: service?.url ?? null }), type: 'application/json' };
    },
  };
}
