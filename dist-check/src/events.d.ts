/** Per-instance event listeners: `on`, `off`, and the `callbacks` option. */
import type { PluginEventMap, PluginEventName } from './wire/api.js';
export type PluginEventListener<K extends PluginEventName> = (payload: PluginEventMap[K]) => void;
/** Reports a listener's exception the way the platform reports one from an event listener. */
export declare function report(error: unknown): void;
export declare class Emitter {
  #private;
  on<K extends PluginEventName>(name: K, listener: PluginEventListener<K>): () => void;
  off<K extends PluginEventName>(name: K, listener: PluginEventListener<K>): void;
  /** Calls every listener of `name`; one listener's exception does not stop the others. */
  emit<K extends PluginEventName>(name: K, payload: PluginEventMap[K]): void;
  clear(): void;
}
//# sourceMappingURL=events.d.ts.map
