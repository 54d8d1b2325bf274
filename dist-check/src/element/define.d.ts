/** The element's tag name. */
export declare const TAG_NAME = 'video-plugin';
/**
 * Registers `VideoPluginElement` as `<video-plugin>` unless it already is. When another copy of
 * video-plugin registered the tag first, warns once and leaves that registration in place.
 * Returns whether this copy's class is the registered one. Does nothing where there is no
 * `customElements` registry (server-side rendering without a DOM shim).
 */
export declare function defineVideoPlugin(): boolean;
//# sourceMappingURL=define.d.ts.map
