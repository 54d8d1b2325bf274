// The little of s3rver (3.x, no types of its own) that the media-store tests use.
declare module 's3rver' {
  export default class S3rver {
    constructor(options: { port?: number; address?: string; silent?: boolean; directory?: string });
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
