// The example apps: each built by its own toolchain (`npm run build` in its folder) and served on
// a port of its own, so that each is a site of its own, as in production. The local service runs
// on SERVICE_PORT, a different site again.
export const SERVICE_PORT = 8340;

/** The partner the local service knows (any ID and secret will do for it). */
export const PARTNER = { id: 'frameworks-partner', secret: 'frameworks-partner-secret-0123456789abcdef' };

/** name → { port, dir: its folder, static: the built files to serve (no server of its own) }. */
export const APPS = {
  react19: { label: 'React 19', port: 8341, static: 'react19/dist' },
  react18: { label: 'React 18', port: 8342, static: 'react18/dist' },
  vue: { label: 'Vue 3', port: 8343, static: 'vue/dist' },
  svelte: { label: 'Svelte 5', port: 8344, static: 'svelte/dist' },
  angular: { label: 'Angular', port: 8345, static: 'angular/dist/browser' },
  // Server-rendered: `next start` serves it.
  next: { label: 'Next.js', port: 8346 },
};
