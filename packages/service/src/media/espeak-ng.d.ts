// The `espeak-ng` package ships no type declarations; voice.ts types what it uses.
declare module 'espeak-ng' {
  const factory: (options: Record<string, unknown>) => Promise<unknown>;
  export default factory;
}
