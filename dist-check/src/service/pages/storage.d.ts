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
export declare function readStored(key: string): string | null;
/**
 * Stores `value` under `key` (removes the key when `value` is `undefined`). Returns whether the
 * browser kept it; a denied or full storage is not an error.
 */
export declare function writeStored(key: string, value: string | undefined): boolean;
//# sourceMappingURL=storage.d.ts.map
