#!/usr/bin/env node
// The `video-plugin-service` command: runs the built local service (dist/cli.js of this package).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  console.error(
    'video-plugin-service: the package is not built (dist/cli.js is missing); run `npm run build` at the root of the video-plugin repository first.',
  );
  process.exit(1);
}
await import(cli.href);
