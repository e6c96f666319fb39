// Append-only: never edit a migration that has shipped; add a new one.
export const MIGRATIONS: string[] = [
  `
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    key_hash TEXT NOT NULL UNIQUE,
    mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),
    plan TEXT NOT NULL CHECK (plan IN ('sandbox', 'trial', 'paid')),
    trial_quota INTEGER,
    rate_limit_per_s REAL,
    monthly_cap REAL,
    created_at TEXT NOT NULL,
    revoked_at TEXT
  ) STRICT;

  CREATE TABLE key_usage (
    key_id TEXT NOT NULL REFERENCES api_keys(id),
    period TEXT NOT NULL,
    documents INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (key_id, period)
  ) STRICT;

  CREATE TABLE verifications (
    id TEXT PRIMARY KEY,
    key_id TEXT NOT NULL,
    batch_id TEXT,
    document_index INTEGER,
    result TEXT NOT NULL,
    report TEXT NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX verifications_created ON verifications (created_at);
  CREATE INDEX verifications_batch ON verifications (batch_id, document_index);

  CREATE TABLE batches (
    id TEXT PRIMARY KEY,
    key_id TEXT NOT NULL,
    sandbox INTEGER NOT NULL,
    total INTEGER NOT NULL,
    completed INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL CHECK (status IN ('processing', 'completed')),
    callback_url TEXT NOT NULL,
    callback_secret TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    completed_at INTEGER
  ) STRICT;

  CREATE TABLE batch_documents (
    batch_id TEXT NOT NULL REFERENCES batches(id),
    document_index INTEGER NOT NULL,
    content BLOB,
    state TEXT NOT NULL CHECK (state IN ('pending', 'done', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    lease_owner TEXT,
    lease_until INTEGER NOT NULL DEFAULT 0,
    not_before INTEGER NOT NULL DEFAULT 0,
    verification_id TEXT,
    PRIMARY KEY (batch_id, document_index)
  ) STRICT;
  CREATE INDEX batch_documents_pending ON batch_documents (state, not_before);

  CREATE TABLE outbox (
    delivery_id TEXT PRIMARY KEY,
    batch_id TEXT NOT NULL REFERENCES batches(id),
    document_index INTEGER NOT NULL,
    body BLOB NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    lease_owner TEXT,
    lease_until INTEGER NOT NULL DEFAULT 0,
    last_status INTEGER,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    finished_at INTEGER
  ) STRICT;
  CREATE INDEX outbox_due ON outbox (state, next_attempt_at);
  `,
  `
  CREATE TABLE fingerprints (
    key_id TEXT NOT NULL,
    verification_id TEXT NOT NULL,
    exact TEXT NOT NULL,
    image TEXT,
    layout TEXT,
    content TEXT,
    identifiers TEXT NOT NULL,
    dates TEXT,
    portrait TEXT,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (key_id, verification_id)
  ) STRICT;
  CREATE INDEX fingerprints_key ON fingerprints (key_id, created_at);
  CREATE INDEX fingerprints_exact ON fingerprints (key_id, exact);
  CREATE INDEX fingerprints_created ON fingerprints (created_at);
  `,
  `
  ALTER TABLE fingerprints ADD COLUMN holder TEXT NOT NULL DEFAULT '[]';
  `,
  `
  -- Every webhook attempt, written in the transaction that records its outcome. redeliver_at
  -- asks for one attempt outside the retry schedule (an integrator's redelivery).
  CREATE TABLE delivery_attempts (
    delivery_id TEXT NOT NULL REFERENCES outbox(delivery_id),
    attempt INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('scheduled', 'redelivery')),
    started_at INTEGER NOT NULL,
    duration_ms INTEGER NOT NULL,
    status INTEGER,
    error TEXT,
    PRIMARY KEY (delivery_id, attempt)
  ) STRICT;
  ALTER TABLE outbox ADD COLUMN redeliver_at INTEGER;
  CREATE INDEX outbox_batch ON outbox (batch_id, document_index);
  CREATE INDEX outbox_redeliver ON outbox (redeliver_at) WHERE redeliver_at IS NOT NULL;
  `,
  `
  -- The first answer to a request sent with an Idempotency-Key, per API key, until it
  -- expires. An in_progress row is a request being worked on; its lock runs out if the
  -- process died with it.
  CREATE TABLE idempotency_keys (
    key_id TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('in_progress', 'done')),
    status INTEGER,
    response BLOB,
    locked_until INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (key_id, idempotency_key)
  ) STRICT;
  CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at);
  `,
  `
  -- Callback secrets sealed with AES-256-GCM (src/keys/secret-keyring.ts). callback_secret
  -- keeps plaintext only for rows written before this migration, until serve seals them.
  ALTER TABLE batches ADD COLUMN callback_secret_sealed TEXT;
  `,
  `
  -- A key's secrets: the current one and, after a rotation, the old one until its grace
  -- period ends. The key (id, limits, usage, results) stays the same across rotations.
  CREATE TABLE api_key_secrets (
    key_hash TEXT PRIMARY KEY,
    key_id TEXT NOT NULL REFERENCES api_keys(id),
    created_at TEXT NOT NULL,
    expires_at TEXT,
    last_used_at TEXT
  ) STRICT;
  CREATE INDEX api_key_secrets_key ON api_key_secrets (key_id);
  INSERT INTO api_key_secrets (key_hash, key_id, created_at) SELECT key_hash, id, created_at FROM api_keys;

  -- Key lifecycle and refused requests; identifiers and codes only, never document content.
  CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL,
    event TEXT NOT NULL,
    key_id TEXT,
    details TEXT NOT NULL
  ) STRICT;
  CREATE INDEX audit_log_at ON audit_log (at);
  CREATE INDEX audit_log_key ON audit_log (key_id, at);
  `,
  `
  -- Request-rate token buckets, one per rate-limited key, shared by every instance using the
  -- database (src/store/rate-limits.ts).
  CREATE TABLE rate_buckets (
    key_id TEXT PRIMARY KEY,
    tokens REAL NOT NULL,
    updated_ms INTEGER NOT NULL
  ) STRICT;
  `,
];
