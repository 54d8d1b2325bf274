// Types of apps.mjs, for the TypeScript tests and config.
export declare const SERVICE_PORT: number;
export declare const PARTNER: { id: string; secret: string };
export declare const APPS: Record<
  'react19' | 'react18' | 'vue' | 'svelte' | 'angular' | 'next',
  { label: string; port: number; static?: string }
>;
