#!/usr/bin/env node
// The `video-plugin-service` command: runs the built local service (dist/service/cli.js).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/service/cli.js', import.meta.url);
if (!existsSync(cli)) {
  console.error(
    'video-plugin-service: the package is not built (dist/service/cli.js is missing); run npm run build first.',
  );
  process.exit(1);
}
await import(cli.href);
