export declare const MAX_IMAGE_BYTES: number;
export declare const MAX_IMAGE_PIXELS = 40000000;
export declare const MAX_IMAGE_SIDE = 12000;
/** A downloaded image, or why it was skipped. */
export type ImageResult =
  | {
      file: string;
      width: number;
      height: number;
    }
  | {
      skipped: string;
    };
/** Checks `bytes` without decoding them; returns the type and size, or why they are refused. */
export declare function checkImage(bytes: Uint8Array):
  | {
      type: string;
      width: number;
      height: number;
    }
  | {
      refused: string;
    };
/** Downloads `url` into `dir` as `<index>.<type>` after the checks above. */
export declare function downloadImage(
  url: string,
  dir: string,
  index: number,
  {
    timeoutMs,
    signal,
  }: {
    timeoutMs: number;
    signal?: AbortSignal;
  },
): Promise<ImageResult>;
//# sourceMappingURL=images.d.ts.map
