/**
 * The frame's own `sessionStorage`, as a best-effort copy of what the page keeps in memory.
 *
 * A cross-site frame may be denied any storage: Chromium with third-party cookies or all site data
 * blocked throws `SecurityError` ("Access is denied for this document") on the first touch of
 * `window.sessionStorage`, Safari may hand out storage that throws on write (quota 0), and the user
 * or the browser may clear it at any time. The page must load, connect and keep its session in
 * memory whatever happens here, so every access goes through these two functions, which never throw.
 */

/** The stored value of `key`, or `null` when there is none or the browser denies the storage. */
export function readStored(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * Stores `value` under `key` (removes the key when `value` is `undefined`). Returns whether the
 * browser kept it; a denied or full storage is not an error.
 */
export function writeStored(key: string, value: string | undefined): boolean {
  try {
    if (value === undefined) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether this frame can keep anything in its storage right now: a probe key written, read back and
 * removed (`diagnose()` reports it; a denied storage means a reload loses the session).
 */
export function storageWorks(): boolean {
  const key = 'video-plugin:probe';
  const kept = writeStored(key, '1') && readStored(key) === '1';
  writeStored(key, undefined);
  return kept;
}
