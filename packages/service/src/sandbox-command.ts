/**
 * `video-plugin-service sandbox create|reset`: a client of a running service's sandbox routes
 * (docs/service.md "Sandboxes"), for a CI script that makes a sandbox per job: it prints the
 * service's JSON answer (`{ partnerID, secret, webhookSecret, expiresAt }`) on stdout, and nothing
 * else, so that `jq` or the script can read it. The service must run with `--sandboxes`.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_HOST, DEFAULT_PORT } from './config.js';
import { UsageError } from './command-line.js';

/** Usage text of `video-plugin-service sandbox`. */
export const SANDBOX_USAGE = `Usage: video-plugin-service sandbox create [options]
       video-plugin-service sandbox reset PARTNER_ID [options]

Makes a sandbox (a short-lived partner of its own) on a running service started with
--sandboxes, and prints {"partnerID","secret","webhookSecret","expiresAt"} as JSON; or resets
one: its accounts, records, files and sessions are removed, its tokens refused.

Options:
  --url URL              the service (default http://${DEFAULT_HOST}:${DEFAULT_PORT})   env VIDEO_PLUGIN_URL
  --operator-key KEY     the service's operator key                   env VIDEO_PLUGIN_OPERATOR_KEY
  --allowed-origin ORIGIN  (create) a page origin allowed to embed the plugin; repeatable
                         (default http://localhost:* and http://127.0.0.1:*)
  --webhook-url URL      (create) post the sandbox's signed events to URL; repeatable
  -h, --help             show this help

Flags win over environment variables. Exit status: 0 done, 1 refused by the service (its
error on stderr), 2 a mistake on the command line.`;

/** What to do: print the usage, or call the service. */
export type SandboxCommand =
  | { help: true }
  | {
      help: false;
      action: 'create' | 'reset';
      url: string;
      operatorKey: string;
      partnerID?: string;
      body?: { allowedOrigins?: string[]; webhookURLs?: string[] };
    };

/** Reads `sandbox …`'s arguments (after the word `sandbox`). */
export function parseSandboxCommand(argv: readonly string[], env: NodeJS.ProcessEnv = {}): SandboxCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        'operator-key': { type: 'string' },
        'allowed-origin': { type: 'string', multiple: true },
        'webhook-url': { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  const [action, partnerID, ...rest] = positionals;
  if (action !== 'create' && action !== 'reset') {
    throw new UsageError(`sandbox needs create or reset (got ${action === undefined ? 'nothing' : `"${action}"`}).`);
  }
  if (action === 'create' ? partnerID !== undefined : partnerID === undefined || rest.length > 0) {
    throw new UsageError(
      action === 'create'
        ? `sandbox create takes no argument (got "${partnerID}").`
        : 'sandbox reset takes one PARTNER_ID.',
    );
  }
  const url = values.url ?? (env.VIDEO_PLUGIN_URL || `http://${DEFAULT_HOST}:${DEFAULT_PORT}`);
  try {
    const parsedURL = new URL(url);
    if (parsedURL.protocol !== 'http:' && parsedURL.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new UsageError(`--url must be the service's http or https URL, e.g. http://127.0.0.1:8001 (got "${url}").`);
  }
  const operatorKey = values['operator-key'] ?? (env.VIDEO_PLUGIN_OPERATOR_KEY || undefined);
  if (!operatorKey) {
    throw new UsageError(
      "sandbox needs --operator-key KEY (or VIDEO_PLUGIN_OPERATOR_KEY): the service's operator key.",
    );
  }
  const body = {
    ...(values['allowed-origin'] ? { allowedOrigins: values['allowed-origin'] } : {}),
    ...(values['webhook-url'] ? { webhookURLs: values['webhook-url'] } : {}),
  };
  if (action === 'reset' && Object.keys(body).length > 0) {
    throw new UsageError('--allowed-origin and --webhook-url are options of sandbox create.');
  }
  return {
    help: false,
    action,
    url: url.replace(/\/+$/, ''),
    operatorKey,
    ...(action === 'reset' ? { partnerID } : { body }),
  };
}

/**
 * Calls the service; resolves with the text to print (the JSON answer, or nothing for a reset).
 *
 * @throws {Error} the service's error (code and message), or why it could not be reached.
 */
export async function runSandboxCommand(command: Exclude<SandboxCommand, { help: true }>): Promise<string> {
  const { action, url, operatorKey, partnerID, body } = command;
  const path = action === 'create' ? '/api/sandboxes' : `/api/sandboxes/${encodeURIComponent(partnerID ?? '')}`;
  let response: Response;
  try {
    response = await fetch(`${url}${path}`, {
      method: action === 'create' ? 'POST' : 'DELETE',
      headers: {
        authorization: `Bearer ${operatorKey}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  } catch (error) {
    const cause = (error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new Error(`cannot reach the service at ${url} (${cause}). Is it running? Give its address with --url.`, {
      cause: error,
    });
  }
  const text = await response.text();
  if (response.ok) return text;
  let reason = `HTTP ${response.status}`;
  try {
    const { error } = JSON.parse(text) as { error: { code: string; message: string } };
    reason = `${error.code}: ${error.message}`;
  } catch {
    // not the service's JSON: the status says enough
  }
  throw new Error(`the service at ${url} refused: ${reason}`);
}
