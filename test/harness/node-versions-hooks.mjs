// Loaded with --import in every Node process of a run of test/harness/node-versions.mjs: resolves
// `better-sqlite3` to the copy built for this Node's ABI (VP_BETTER_SQLITE3), for import and
// require alike, wherever it is imported from (the repository's sources or an installed package).
import * as module from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const folder = process.env.VP_BETTER_SQLITE3;
if (folder) {
  if (!module.registerHooks)
    throw new Error(`node-versions-hooks: Node ${process.version} has no module.registerHooks`);
  const url = pathToFileURL(join(folder, 'lib', 'index.js')).href;
  module.registerHooks({
    resolve(specifier, context, nextResolve) {
      if (specifier === 'better-sqlite3') return { url, format: 'commonjs', shortCircuit: true };
      return nextResolve(specifier, context);
    },
  });
}
