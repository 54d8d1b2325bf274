/**
 * The `video-plugin-service` command: reads the flags and environment, starts the service, prints
 * what a partner needs to connect (URL, partner ID, secret, allowed origins), and stops cleanly on
 * Ctrl+C. `video-plugin-service sandbox …` is instead a client of a running service
 * (sandbox-command.ts). Importing this module runs the command (it is the bin's entry point).
 */
import { relaunchWithArenaLimit } from './launcher.js';
import type * as Config from './config.js';
import type { RunningService } from './server.js';

// The service's modules load only in the process that serves, not in a launcher that starts Node
// again (launcher.ts): it stays small.
let config: typeof Config;

async function main(): Promise<void> {
  const { VideoPluginError } = await import('video-plugin/internal');
  config = await import('./config.js');
  const { parseCommandLine, UsageError, USAGE } = await import('./command-line.js');
  const { startService } = await import('./server.js');
  let commandLine;
  try {
    commandLine = parseCommandLine(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    usageError(error.message);
  }
  if (commandLine.help) {
    console.log(USAGE);
    return;
  }

  let service: RunningService;
  try {
    service = await startService(commandLine.options);
  } catch (error) {
    if (error instanceof VideoPluginError) usageError(error.message);
    // A database that cannot be reached is the command's configuration (or a server not started).
    if ((error as Error).name === 'DatabaseUnreachableError') {
      console.error(`video-plugin-service: ${(error as Error).message}`);
      process.exit(2);
    }
    const code = (error as NodeJS.ErrnoException).code;
    const hint =
      code === 'EADDRINUSE' ? ' The port is taken: choose another with --port, or --port 0 for any free one.' : '';
    const message = (error as Error).message.replace(/\.?$/, '.');
    console.error(`video-plugin-service: ${message}${hint}`);
    process.exit(1);
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      // A second Ctrl+C does not wait. SIGTERM again changes nothing: a process manager that
      // signals the launcher's whole group (systemd, a test harness) sends it twice, once through
      // the launcher, and the stop goes on to its end (temporary files removed, exit 0).
      if (signal === 'SIGINT') process.exit(1);
      return;
    }
    stopping = true;
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('video-plugin-service: failed to stop cleanly:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Printed last: whoever waits for the banner (a person, a test) may stop the service at once.
  console.log(banner(service));
}

function banner(service: RunningService): string {
  const lines = [`video-plugin-service listening on ${service.url}`];
  for (const partner of service.partners) {
    lines.push(
      `  partner ID:      ${partner.id}`,
      // The demo secret is public (the docs print it); any other is the operator's and stays off
      // the terminal and its logs.
      `  secret:          ${partner.secret === config.DEMO_SECRET ? `${partner.secret} (the demo secret)` : '(as given; not printed)'}`,
      `  webhook secret:  ${webhookSecretLine(partner.webhookSecrets)}`,
      `  allowed origins: ${partner.allowedOrigins.join(', ')}`,
      `  auth modes:      ${partner.authModes.join(', ')}`,
    );
    if (partner.webhookURLs.length > 0)
      lines.push(`  webhooks to:     ${partner.webhookURLs.map(config.loggable).join(', ')}`);
  }
  lines.push(
    `  plugin page:     ${service.url}/plugin`,
    `  job time:        ${service.jobMs} ms`,
    `  local sites:     ${loopbackLine(service.allowLoopbackSources)}`,
    service.shared
      ? '  partner IDs:     not named to callers (--shared: health, diagnose and partner_not_found list none)'
      : "  partner IDs:     named to callers (a developer's own service; --shared for a team's or a CI's)",
    // Printed only when on: a service that lets partners force outcomes must say so to whoever runs it.
    ...(service.testControls.enabled
      ? ['  test controls:   on, for tests only (POST /api/test/outcomes forces job outcomes)']
      : []),
    ...(service.clock.manual ? ['  clock:           manual (jobs wait for POST /api/test/clock/advance)'] : []),
    `  sandboxes:       ${sandboxLine(service.sandboxes)}`,
    `  data:            ${dataLine(service)}`,
    // The bucket and endpoint only: credentials stay in the AWS environment.
    ...(service.mediaStore ? [`  media store:     ${service.mediaStore}`] : []),
    `Use serviceURL: '${service.url}' in the Plugin options. Press Ctrl+C to stop.`,
  );
  return lines.join('\n');
}

/** Where the records are kept; a database's password is never printed. */
function dataLine({ dataFile, database }: RunningService): string {
  if (database !== undefined) return `PostgreSQL ${database} (password not printed)`;
  return dataFile ?? 'in memory (use --data FILE to keep it across restarts)';
}

/** Whether topic searches may read sites on this machine (loopback), and on which ports. */
function loopbackLine(allowed: boolean | readonly number[]): string {
  if (allowed === false) return 'not searched (--allow-loopback-sources to search a site on this machine)';
  if (allowed === true) return "searched on any port but the service's own (--allow-loopback-sources)";
  return `searched on port${allowed.length > 1 ? 's' : ''} ${allowed.join(', ')} only (--allow-loopback-port)`;
}

/** Whether the sandbox routes are open, and their limits; the operator key is never printed. */
function sandboxLine({ http, max, ttlMs, jobsPerSandbox }: RunningService['sandboxes']): string {
  if (!http) return 'closed (open POST /api/sandboxes with --sandboxes --operator-key KEY)';
  return `POST /api/sandboxes with the operator key (as given; not printed): at most ${max} at once, ${ttlMs} ms each, ${jobsPerSandbox} jobs each`;
}

/** The demo webhook secret is public and printed; the operator's are not. */
function webhookSecretLine(secrets: readonly string[]): string {
  if (secrets.length === 0) return 'none (no webhooks, no event log: give --webhook-secret)';
  if (secrets[0] === config.DEMO_WEBHOOK_SECRET) return `${config.DEMO_WEBHOOK_SECRET} (the demo webhook secret)`;
  return secrets.length === 1 ? '(as given; not printed)' : `${secrets.length} as given (the first signs); not printed`;
}

function usageError(message: string): never {
  console.error(`video-plugin-service: ${message}\nRun video-plugin-service --help for the options.`);
  process.exit(2);
}

/** `video-plugin-service sandbox create|reset`: one request to a running service, its JSON printed. */
async function sandbox(argv: readonly string[]): Promise<void> {
  const { UsageError } = await import('./command-line.js');
  const { parseSandboxCommand, runSandboxCommand, SANDBOX_USAGE } = await import('./sandbox-command.js');
  let command;
  try {
    command = parseSandboxCommand(argv, process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`video-plugin-service: ${error.message}\nRun video-plugin-service sandbox --help for the options.`);
    process.exit(2);
  }
  if (command.help) {
    console.log(SANDBOX_USAGE);
    return;
  }
  try {
    const output = await runSandboxCommand(command);
    if (output) console.log(output);
  } catch (error) {
    console.error(`video-plugin-service sandbox ${command.action}: ${(error as Error).message}`);
    process.exit(1);
  }
}

// The sandbox client serves nothing: it runs as it is, without the launcher's relaunch.
if (process.argv[2] === 'sandbox') await sandbox(process.argv.slice(3));
else if (!relaunchWithArenaLimit()) await main();
