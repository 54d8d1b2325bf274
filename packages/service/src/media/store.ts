/**
 * Where the service keeps its media when it is not the local media folder: a bucket of an
 * S3-compatible server (`--media-store s3://BUCKET?endpoint=URL&region=R`). files.ts still names
 * every file and says which content key each one has; this file only moves bytes.
 *
 * - Objects are keyed by content (`sha256/<hex>`, {@link contentKey}): two identical renders are
 *   one object, and a key never changes its bytes, so an object is never overwritten.
 * - The scene cache keeps its entries under `cache/scenes/<key>.<ext>` (its keys are content keys
 *   too: segments.ts), shared by every service on the bucket.
 * - Credentials come from the AWS SDK's standard chain (AWS_ACCESS_KEY_ID and
 *   AWS_SECRET_ACCESS_KEY, a profile…); the service never reads, prints or logs them.
 * - A store that cannot be reached: {@link MediaStore.put} tries again with a doubling wait, about
 *   30 s in all, then throws {@link MediaStoreUnavailable}; reads throw it at once (the media route
 *   answers 503 with `Retry-After`).
 *
 * The AWS SDK is imported only when a store is opened: a service on the local folder never loads it.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { S3Client } from '@aws-sdk/client-s3';

/** Where the media are: a bucket, the S3 server's endpoint (none: AWS itself) and the region. */
export interface MediaStoreLocation {
  readonly bucket: string;
  /** An `http:` or `https:` origin (with a path only if the server wants one); undefined: AWS S3. */
  readonly endpoint: string | undefined;
  readonly region: string;
}

/** The region used when the URL names none. */
export const DEFAULT_REGION = 'us-east-1';

/** How long storing a file keeps trying before the render fails (in ms; `mediaStoreRetryMs`). */
export const DEFAULT_STORE_RETRY_MS = 30_000;

/** Seconds a player should wait before asking again for a file the store could not give. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/** What to write, for the messages of a bad value. */
const EXAMPLE = 's3://BUCKET?endpoint=http://127.0.0.1:4568&region=us-east-1';

/**
 * Reads `s3://BUCKET?endpoint=URL&region=R`. Returns the location, or what is wrong with the
 * text (a sentence that fits after the option's name: "must start with s3:// …").
 */
export function parseMediaStore(text: string): MediaStoreLocation | string {
  const what = `(got "${text}"); write ${EXAMPLE}, or leave it out for the local media folder`;
  if (!text.startsWith('s3://')) return `must be an S3 bucket URL starting with s3:// ${what}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `is not a URL ${what}`;
  }
  const bucket = url.hostname;
  if (bucket === '') return `names no bucket ${what}`;
  // S3's rules for a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes('..')) {
    return `names the bucket "${bucket}", which is no S3 bucket name (3 to 63 lower-case letters, digits, dots and hyphens) ${what}`;
  }
  if (url.username !== '' || url.password !== '') {
    return `must not carry credentials (they come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY) ${what}`;
  }
  if (url.port !== '' || (url.pathname !== '' && url.pathname !== '/') || url.hash !== '') {
    return `must be a bucket alone, without a port, path or fragment (the service names the objects itself) ${what}`;
  }
  const unknown = [...url.searchParams.keys()].filter((key) => key !== 'endpoint' && key !== 'region');
  if (unknown.length > 0)
    return `has "${unknown.join('", "')}", which it does not know: only endpoint and region ${what}`;
  const endpoint = url.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined) {
    const problem = endpointProblem(endpoint);
    if (problem) return `has an endpoint that ${problem} ${what}`;
  }
  const region = url.searchParams.get('region') ?? DEFAULT_REGION;
  if (!/^[a-z]{2,}(-[a-z0-9]+)*$/.test(region)) {
    return `has the region "${region}", which is no region name (like us-east-1 or auto) ${what}`;
  }
  return { bucket, endpoint: endpoint?.replace(/\/$/, ''), region };
}

/** What is wrong with an endpoint URL, or undefined. */
function endpointProblem(endpoint: string): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return `is not a URL ("${endpoint}")`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `is not http or https ("${endpoint}")`;
  if (url.username !== '' || url.password !== '') return 'carries credentials (give them in the AWS environment)';
  if (url.search !== '' || url.hash !== '') return `has a query or fragment ("${endpoint}")`;
  return undefined;
}

/** The store as a log line may show it: the bucket and the endpoint, nothing else. */
export function describeMediaStore({ bucket, endpoint, region }: MediaStoreLocation): string {
  return `s3://${bucket} at ${endpoint ?? `AWS S3 (${region})`}`;
}

/** A store that could not be reached (or refused the service) after its tries. */
export class MediaStoreUnavailable extends Error {
  override readonly name = 'MediaStoreUnavailable';
}

/** An object's bytes, as {@link MediaStore.get} gives them. */
export interface StoredObject {
  /** The bytes asked for (the range, or all). */
  readonly body: Readable;
  /** The whole object's size in bytes. */
  readonly size: number;
}

/** A byte range, both ends included (as in HTTP's `Range`). */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/** The operations the service needs from a media store. */
export interface MediaStore {
  /** Where it is, for the banner and the logs. */
  readonly description: string;
  /**
   * Stores `localFile` as `key`, unless the store has it already (keys are content keys). With
   * `retry` (the default), waits and tries again while the store cannot be reached.
   */
  put(key: string, localFile: string, options?: { retry?: boolean; signal?: AbortSignal }): Promise<void>;
  /** The object `key` (or `range` of it); undefined when the store does not have it. */
  get(key: string, range?: ByteRange): Promise<StoredObject | undefined>;
  /** The size of the object `key`, or undefined when the store does not have it. */
  has(key: string): Promise<number | undefined>;
  /** Writes the object `key` to `target` (whole or not at all); false when the store does not have it. */
  download(key: string, target: string): Promise<boolean>;
  /** Removes these objects (missing ones are fine). */
  remove(keys: readonly string[]): Promise<void>;
  /** Ends its connections. */
  close(): void;
}

/** The S3 key of the content whose SHA-256 is `sha256` (hex). */
export const contentKey = (sha256: string): string => `sha256/${sha256}`;

/** Whether an S3 failure may pass: no answer at all, a server error or a throttle. */
function transient(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status === undefined || status >= 500 || status === 429;
}

/** Whether an S3 failure says the object is not there. */
function notFound(error: unknown): boolean {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NoSuchKey' || name === 'NotFound' || $metadata?.httpStatusCode === 404;
}

/** Why a call failed, for the log: the SDK's error name and message (never a credential). */
const reason = (error: unknown): string => {
  const { name, message, code } = error as { name?: string; message?: string; code?: string };
  return [name, code, message].filter((part) => part && part !== 'Error').join(': ') || String(error);
};

/** A bucket of an S3-compatible server. */
export class S3MediaStore implements MediaStore {
  readonly description: string;
  readonly #client: S3Client;
  readonly #sdk: typeof import('@aws-sdk/client-s3');
  readonly #bucket: string;
  readonly #retryMs: number;

  private constructor(sdk: typeof import('@aws-sdk/client-s3'), location: MediaStoreLocation, retryMs: number) {
    this.#sdk = sdk;
    this.#bucket = location.bucket;
    this.#retryMs = retryMs;
    this.description = describeMediaStore(location);
    this.#client = new sdk.S3Client({
      region: location.region,
      ...(location.endpoint ? { endpoint: location.endpoint, forcePathStyle: true } : {}),
      // Checksums only where S3 requires them: S3-compatible servers do not all take the SDK's
      // newer default (CRC32 trailers), and every object's key is its SHA-256 already.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // A store that does not answer must not hold a render or a player for minutes.
      requestHandler: { connectionTimeout: 5000, requestTimeout: 60_000 },
    });
  }

  /** Opens the store at `location`; `retryMs` is how long a put keeps trying. */
  static async open(location: MediaStoreLocation, retryMs = DEFAULT_STORE_RETRY_MS): Promise<S3MediaStore> {
    return new S3MediaStore(await import('@aws-sdk/client-s3'), location, retryMs);
  }

  async put(key: string, localFile: string, options: { retry?: boolean; signal?: AbortSignal } = {}): Promise<void> {
    const { retry = true, signal } = options;
    // Waits that double, summing to about `retryMs`: 1, 2, 4, 8 and 16 parts of 31.
    const waits = retry ? [1, 2, 4, 8, 16].map((part) => (this.#retryMs * part) / 31) : [];
    for (let attempt = 0; ; attempt++) {
      try {
        if ((await this.has(key)) !== undefined) return;
        const { size } = await stat(localFile);
        await this.#client.send(
          new this.#sdk.PutObjectCommand({
            Bucket: this.#bucket,
            Key: key,
            Body: createReadStream(localFile),
            ContentLength: size,
          }),
          signal ? { abortSignal: signal } : {},
        );
        return;
      } catch (error) {
        if (signal?.aborted) throw error;
        const cause = error instanceof MediaStoreUnavailable ? error.cause : error;
        const wait = waits[attempt];
        if (wait === undefined || !transient(cause)) {
          throw new MediaStoreUnavailable(`${this.description} did not store ${key}: ${reason(cause)}`, { cause });
        }
        await sleep(wait, undefined, signal ? { signal } : {});
      }
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | undefined> {
    try {
      const answer = await this.#client.send(
        new this.#sdk.GetObjectCommand({
          Bucket: this.#bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      // A range's answer says the whole size after its slash: `bytes 0-99/4096`.
      const whole = /\/(\d+)$/.exec(answer.ContentRange ?? '')?.[1];
      return { body: answer.Body as Readable, size: whole ? Number(whole) : (answer.ContentLength ?? 0) };
    } catch (error) {
      if (error instanceof MediaStoreUnavailable) throw error;
      if (notFound(error)) return undefined;
      throw new MediaStoreUnavailable(`${this.description} did not give ${key}: ${reason(error)}`, { cause: error });
    }
  }

  async has(key: string): Promise<number | undefined> {
    try {
      const head = await this.#client.send(new this.#sdk.HeadObjectCommand({ Bucket: this.#bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (notFound(error)) return undefined;
      throw new MediaStoreUnavailable(`${this.description} did not answer for ${key}: ${reason(error)}`, {
        cause: error,
      });
    }
  }

  async download(key: string, target: string): Promise<boolean> {
    const object = await this.get(key);
    if (!object) return false;
    // Under a temporary name first: a reader sees the whole file or none.
    const partial = `${target}.${randomUUID()}.partial`;
    try {
      await pipeline(object.body, createWriteStream(partial, { mode: 0o600 }));
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw new MediaStoreUnavailable(`${this.description} did not give all of ${key}: ${reason(error)}`, {
        cause: error,
      });
    }
    return true;
  }

  async remove(keys: readonly string[]): Promise<void> {
    // At most 1000 keys per DeleteObjects call (S3's limit).
    for (let at = 0; at < keys.length; at += 1000) {
      const batch = keys.slice(at, at + 1000);
      try {
        await this.#client.send(
          new this.#sdk.DeleteObjectsCommand({
            Bucket: this.#bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        );
      } catch (error) {
        throw new MediaStoreUnavailable(
          `${this.description} did not remove ${batch.length} objects: ${reason(error)}`,
          {
            cause: error,
          },
        );
      }
    }
  }

  close(): void {
    this.#client.destroy();
  }
}
