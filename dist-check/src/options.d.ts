/**
 * The partner's inputs: the constructor options and every method's arguments, as zod/mini schemas.
 * Types come from the schemas; defaults live here too.
 */
import * as z from 'zod/mini';
/** Where each `environment` lives. `serviceURL` overrides it. */
export declare const SERVICE_URLS: {
  readonly prod: 'https://app.video-plugin.example';
  readonly demo: 'https://demo.video-plugin.example';
};
/** The path of the service page that runs in the iframe. */
export declare const PLUGIN_PATH = '/plugin';
/** Default limit for `openPlugin` and `openEditorForVideo`, in milliseconds. */
export declare const DEFAULT_OPEN_TIMEOUT = 30000;
/** The `getLoginToken` option: a login token for `accountID`, minted by your server. */
export type GetLoginToken = (accountID: string) => Promise<string> | string;
export declare const partnerIDSchema: z.ZodMiniCustom<string, string>;
export declare const pluginOptionsSchema: z.ZodMiniObject<
  {
    environment: z.ZodMiniOptional<z.ZodMiniCustom<'prod' | 'demo', 'prod' | 'demo'>>;
    domElement: z.ZodMiniOptional<z.ZodMiniCustom<HTMLElement, HTMLElement>>;
    authMode: z.ZodMiniOptional<z.ZodMiniCustom<'jwt' | 'uncontrolled', 'jwt' | 'uncontrolled'>>;
    editor: z.ZodMiniOptional<
      z.ZodMiniObject<
        {
          labels: z.ZodMiniOptional<
            z.ZodMiniObject<
              {
                completeVideoConfirmation: z.ZodMiniOptional<
                  z.ZodMiniObject<
                    {
                      shouldShow: z.ZodMiniOptional<z.ZodMiniCustom<boolean, boolean>>;
                      title: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
                      body: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
                      confirmButton: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
                      cancelButton: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
                    },
                    z.core.$strict
                  >
                >;
              },
              z.core.$strict
            >
          >;
        },
        z.core.$strict
      >
    >;
    callbacks: z.ZodMiniOptional<
      z.ZodMiniObject<
        {
          error: z.ZodMiniOptional<z.ZodMiniCustom<(...args: never[]) => unknown, (...args: never[]) => unknown>>;
          pluginOpened: z.ZodMiniOptional<
            z.ZodMiniCustom<(...args: never[]) => unknown, (...args: never[]) => unknown>
          >;
          pluginOpenFailed: z.ZodMiniOptional<
            z.ZodMiniCustom<(...args: never[]) => unknown, (...args: never[]) => unknown>
          >;
          editorOpened: z.ZodMiniOptional<
            z.ZodMiniCustom<(...args: never[]) => unknown, (...args: never[]) => unknown>
          >;
          editorOpenFailed: z.ZodMiniOptional<
            z.ZodMiniCustom<(...args: never[]) => unknown, (...args: never[]) => unknown>
          >;
          editorExited: z.ZodMiniOptional<
            z.ZodMiniCustom<(...args: never[]) => unknown, (...args: never[]) => unknown>
          >;
          videoCreated: z.ZodMiniOptional<
            z.ZodMiniCustom<(...args: never[]) => unknown, (...args: never[]) => unknown>
          >;
          videoSaved: z.ZodMiniOptional<z.ZodMiniCustom<(...args: never[]) => unknown, (...args: never[]) => unknown>>;
          videoCompleted: z.ZodMiniOptional<
            z.ZodMiniCustom<(...args: never[]) => unknown, (...args: never[]) => unknown>
          >;
          videoRendered: z.ZodMiniOptional<
            z.ZodMiniCustom<(...args: never[]) => unknown, (...args: never[]) => unknown>
          >;
          sessionLost: z.ZodMiniOptional<z.ZodMiniCustom<(...args: never[]) => unknown, (...args: never[]) => unknown>>;
        },
        z.core.$strict
      >
    >;
    isDebug: z.ZodMiniOptional<z.ZodMiniCustom<boolean, boolean>>;
    serviceURL: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
    connectTimeout: z.ZodMiniOptional<z.ZodMiniCustom<number, number>>;
    callTimeout: z.ZodMiniOptional<z.ZodMiniCustom<number, number>>;
    getLoginToken: z.ZodMiniOptional<
      z.ZodMiniType<GetLoginToken, GetLoginToken, z.core.$ZodTypeInternals<GetLoginToken, GetLoginToken>>
    >;
    appearance: z.ZodMiniOptional<z.ZodMiniCustom<Appearance, Appearance>>;
    locale: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
  },
  z.core.$strict
>;
/** Options of `new Plugin(partnerID, options)`. */
export type PluginOptions = z.input<typeof pluginOptionsSchema>;
/** The studio's look: see README "Appearance". Colours are hex; lengths are CSS pixels. */
export interface Appearance {
  /** `light` (default), `dark`, or `auto` (follows the user's system setting). */
  colorScheme?: 'light' | 'dark' | 'auto';
  /** Buttons and highlights. Their text is black or white, whichever reads better. */
  colorPrimary?: string;
  /** The page's background. */
  colorBackground?: string;
  /** The text. With `colorBackground`, it must contrast at least 4.5:1 (WCAG 2.1 AA). */
  colorText?: string;
  /** A CSS font-family list, e.g. `"Inter, system-ui, sans-serif"`. */
  fontFamily?: string;
  /** Corner radius of fields, buttons and panels, in pixels (0 to 32, default 6). */
  borderRadius?: number;
  /** The spacing unit every gap and padding is a multiple of, in pixels (2 to 8, default 4). */
  spacingUnit?: number;
}
export declare const tokenSchema: z.ZodMiniCustom<string, string>;
export declare const idSchema: z.ZodMiniCustom<string, string>;
export declare const sourceURLSchema: z.ZodMiniCustom<string, string>;
export declare const updatableAccountInfoSchema: z.ZodMiniObject<
  {
    firstName: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
    lastName: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
    emailAddress: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
    companyName: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
    phone: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
    city: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
    state: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
  },
  z.core.$strict
>;
/** The fields `updateAccountInfo` can change; only the given ones change. */
export type UpdatableAccountInfo = z.infer<typeof updatableAccountInfoSchema>;
export declare const videoGenerationParamsSchema: z.ZodMiniObject<
  {
    topicId: z.ZodMiniCustom<string, string>;
    aspectRatio: z.ZodMiniCustom<'16:9' | '4:5', '16:9' | '4:5'>;
    duration: z.ZodMiniCustom<5 | 15 | 30, 5 | 15 | 30>;
    videoInstructions: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
    language: z.ZodMiniOptional<
      z.ZodMiniCustom<
        'de' | 'en-AU' | 'en-GB' | 'en-NZ' | 'en-US' | 'es' | 'fr' | 'it-IT' | 'pt',
        'de' | 'en-AU' | 'en-GB' | 'en-NZ' | 'en-US' | 'es' | 'fr' | 'it-IT' | 'pt'
      >
    >;
  },
  z.core.$strict
>;
/** The argument of `startVideoGeneration`. */
export type VideoGenerationParams = z.infer<typeof videoGenerationParamsSchema>;
export declare const openPluginOptionsSchema: z.ZodMiniObject<
  {
    sourceURL: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
    sourceUrl: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
    businessURL: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
    topicId: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
    generationRequestId: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
    timeout: z.ZodMiniOptional<z.ZodMiniCustom<number, number>>;
    signal: z.ZodMiniOptional<z.ZodMiniCustom<AbortSignal, AbortSignal>>;
  },
  z.core.$strict
>;
/** Options of `openPlugin`. */
export type OpenPluginOptions = z.input<typeof openPluginOptionsSchema>;
export declare const openEditorOptionsSchema: z.ZodMiniObject<
  {
    timeout: z.ZodMiniOptional<z.ZodMiniCustom<number, number>>;
    signal: z.ZodMiniOptional<z.ZodMiniCustom<AbortSignal, AbortSignal>>;
  },
  z.core.$strict
>;
/** Options of `mount`, the start methods and the status iterators. */
export declare const signalOptionsSchema: z.ZodMiniObject<
  {
    signal: z.ZodMiniOptional<z.ZodMiniCustom<AbortSignal, AbortSignal>>;
  },
  z.core.$strict
>;
/** Options of `mount`, `startTopicSearch`, `startVideoGeneration` and the status iterators. */
export type SignalOptions = z.infer<typeof signalOptionsSchema>;
/** The argument of `update()`: what may change while the studio runs (checked by the service). */
export declare const updateSchema: z.ZodMiniObject<
  {
    appearance: z.ZodMiniOptional<z.ZodMiniCustom<Appearance, Appearance>>;
    locale: z.ZodMiniOptional<z.ZodMiniCustom<string, string>>;
  },
  z.core.$strict
>;
/** The argument of `update()`. */
export interface PluginUpdate {
  appearance?: Appearance;
  locale?: string;
}
/** Options of `openEditorForVideo`. */
export type OpenEditorOptions = z.infer<typeof openEditorOptionsSchema>;
export declare const callbackSchema: z.ZodMiniCustom<(...args: never[]) => unknown, (...args: never[]) => unknown>;
export declare const booleanSchema: z.ZodMiniCustom<boolean, boolean>;
export declare const elementSchema: z.ZodMiniCustom<HTMLElement, HTMLElement>;
export declare const eventNameSchema: z.ZodMiniCustom<
  | 'error'
  | 'pluginOpened'
  | 'pluginOpenFailed'
  | 'editorOpened'
  | 'editorOpenFailed'
  | 'editorExited'
  | 'videoCreated'
  | 'videoSaved'
  | 'videoCompleted'
  | 'videoRendered'
  | 'sessionLost',
  | 'error'
  | 'pluginOpened'
  | 'pluginOpenFailed'
  | 'editorOpened'
  | 'editorOpenFailed'
  | 'editorExited'
  | 'videoCreated'
  | 'videoSaved'
  | 'videoCompleted'
  | 'videoRendered'
  | 'sessionLost'
>;
//# sourceMappingURL=options.d.ts.map
