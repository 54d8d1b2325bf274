// A free TCP port on 127.0.0.1, chosen by the system (a listen on port 0, then closed): for the
// servers of the harness that take a port number rather than port 0 (web-test-runner's dev server,
// WebKitWebDriver, WordPress's PHP server), and for a service URL where nothing listens (the fault
// and diagnose plugins' service that is down). Never a fixed port: runs of `npm test` share the machine
// with each other and with other work, and its steps run side by side.
import { createServer } from 'node:net';

/** Resolves to a port that was free a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
