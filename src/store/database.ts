// The one seam between the stores and an engine. Statements are written once, with `?`
// placeholders and SQL that SQLite and PostgreSQL both accept; what differs between the
// engines (row locks, scrubbing freed pages) is a method here, not a branch in a store.

/** What a statement binds and what a row holds: integers come back as numbers on every engine. */
export type SqlValue = string | number | null | Uint8Array;

/** Runs statements; inside a transaction, on that transaction. */
export interface Sql {
  all<T>(text: string, params?: readonly SqlValue[]): Promise<T[]>;
  get<T>(text: string, params?: readonly SqlValue[]): Promise<T | null>;
  /** Returns how many rows the statement wrote. */
  run(text: string, params?: readonly SqlValue[]): Promise<number>;
}

export interface Transaction extends Sql {
  /**
   * Holds `name` until commit, so transactions naming the same thing run one after another
   * (a check-then-write on rows that may not exist yet, which no row lock can cover).
   */
  lock(name: string): Promise<void>;
}

export type Engine = "sqlite" | "postgres";

/** The schema version a database had when opened and the one its migrations brought it to. */
export interface SchemaVersion {
  found: number;
  current: number;
}

/** This process's connections, read at scrape time for /metrics. */
export interface PoolState {
  /** Connections the pool may open (1 for SQLite). */
  size: number;
  /** Connections open now. */
  open: number;
  /**
   * Statements and transactions started and not finished, those waiting for a connection included.
   */
  busy: number;
}

export interface Database extends Sql {
  readonly engine: Engine;
  /**
   * ` FOR UPDATE SKIP LOCKED` where the engine has row locks, so claimers pass each other's rows
   * by.
   */
  readonly skipLocked: string;
  readonly schema: SchemaVersion;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws.
   * Never await network I/O inside it: writers wait for it.
   */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * Makes the bytes of rewritten rows unreadable from the database files, as far as the engine
   * allows.
   */
  scrub(table: string): Promise<void>;
  pool(): PoolState;
  close(): Promise<void>;
}
