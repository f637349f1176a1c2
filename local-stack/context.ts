// What every stand-in service receives: settings, a superuser pool and a logger.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type pg from 'pg';
import type { StackSettings } from './config.ts';

export interface StackContext {
  settings: StackSettings;
  /** Superuser (`postgres`) pool; services switch role per request with `set local role`. */
  pool: pg.Pool;
  log: (service: string, message: string) => void;
}

/** An HTTP service mounted by the gateway under a prefix such as `/auth/v1`. */
export interface HttpService {
  /** `path` is the request path below the mount prefix (always starts with `/`). */
  handle(req: IncomingMessage, res: ServerResponse, path: string, url: URL): Promise<void>;
  close?(): Promise<void>;
}

/** A WebSocket service mounted by the gateway (Realtime). */
export interface UpgradeService {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): void;
  /**
   * Refuses new sockets and closes the open ones with a close frame (1001, going away), cutting
   * those that have not answered it within `graceMs`; the first step of stopping the stack.
   */
  disconnect(graceMs: number): Promise<void>;
  /** Stops for good (disconnecting first if that has not happened). */
  close(): Promise<void>;
}
