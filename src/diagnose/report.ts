/**
 * A diagnosis for people: a console table (grouped, with the fixes and the debug lines under it),
 * or plain text for logs, issue reports and tests.
 */
import { LOG_PREFIX } from '../debug.js';
import type { Diagnosis } from './checks.js';

function summary(diagnosis: Diagnosis): string {
  const count = (status: string) => diagnosis.checks.filter((check) => check.status === status).length;
  const errors = count('error');
  const warnings = count('warning');
  const parts = [
    errors && `${errors} error${errors > 1 ? 's' : ''}`,
    warnings && `${warnings} warning${warnings > 1 ? 's' : ''}`,
  ];
  const said = parts.filter(Boolean).join(', ');
  return said || 'every check is ok';
}

/**
 * Prints a diagnosis to the console: a group headed by the outcome, a table of the checks, each fix
 * under it, and (collapsed) the lines `isDebug` would print.
 */
export function printDiagnosis(diagnosis: Diagnosis): void {
  console.group(
    `${LOG_PREFIX} diagnose: ${summary(diagnosis)} — partner ${diagnosis.partnerID}, service ${diagnosis.serviceURL}, page ${diagnosis.pageOrigin}`,
  );
  console.table(diagnosis.checks.map(({ id, status, message }) => ({ check: id, status, message })));
  for (const check of diagnosis.checks) {
    if (check.status !== 'ok' && check.fix) console.log(`${check.id} (${check.status}) — fix:\n${check.fix}`);
  }
  console.groupCollapsed(`what isDebug: true would print (${diagnosis.debugLog.length} lines)`);
  for (const line of diagnosis.debugLog) console.log(line);
  console.groupEnd();
  console.groupEnd();
}

/** A diagnosis as plain text: a heading line, then one line per check and an indented fix. */
export function formatDiagnosis(diagnosis: Diagnosis): string {
  const width = Math.max(...diagnosis.checks.map((check) => check.id.length));
  const lines = [
    `video-plugin diagnose ${diagnosis.sdkVersion}: ${summary(diagnosis)} (partner ${diagnosis.partnerID}, service ${diagnosis.serviceURL}, page ${diagnosis.pageOrigin}, ${diagnosis.ms} ms)`,
  ];
  for (const check of diagnosis.checks) {
    lines.push(`${check.status.padEnd(7)}  ${check.id.padEnd(width)}  ${check.message}`);
    if (check.fix) for (const fix of check.fix.split('\n')) lines.push(`${' '.repeat(width + 11)}fix: ${fix}`);
  }
  return lines.join('\n');
}
