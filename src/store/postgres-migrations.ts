// PostgreSQL's schema, kept in step with SQLite's (migrations.ts) by
// test/unit/store/schema-parity.test.ts: the same tables, columns, nullability and keys.
// The first entry is SQLite's seven migrations at once (no PostgreSQL deployment predates
// them); a change to the schema from here on is a new entry in both lists.
// Append-only: never edit a migration that has shipped; add a new one.
export const POSTGRES_MIGRATIONS: string[] = [
  `
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    key_hash TEXT NOT NULL UNIQUE,
    mode TEXT NOT NULL CHECK (mode IN ('test', 'live')),
    plan TEXT NOT NULL CHECK (plan IN ('sandbox', 'trial', 'paid')),
    trial_quota BIGINT,
    rate_limit_per_s DOUBLE PRECISION,
    monthly_cap DOUBLE PRECISION,
    created_at TEXT NOT NULL,
    revoked_at TEXT
  );

  CREATE TABLE key_usage (
    key_id TEXT NOT NULL REFERENCES api_keys(id),
    period TEXT NOT NULL,
    documents BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (key_id, period)
  );

  CREATE TABLE verifications (
    id TEXT PRIMARY KEY,
    key_id TEXT NOT NULL,
    batch_id TEXT,
    document_index BIGINT,
    result TEXT NOT NULL,
    report TEXT NOT NULL,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX verifications_created ON verifications (created_at);
  CREATE INDEX verifications_batch ON verifications (batch_id, document_index);

  CREATE TABLE batches (
    id TEXT PRIMARY KEY,
    key_id TEXT NOT NULL,
    sandbox BIGINT NOT NULL,
    total BIGINT NOT NULL,
    completed BIGINT NOT NULL DEFAULT 0,
    failed BIGINT NOT NULL DEFAULT 0,
    status TEXT NOT NULL CHECK (status IN ('processing', 'completed')),
    callback_url TEXT NOT NULL,
    callback_secret TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    completed_at BIGINT,
    callback_secret_sealed TEXT
  );

  CREATE TABLE batch_documents (
    batch_id TEXT NOT NULL REFERENCES batches(id),
    document_index BIGINT NOT NULL,
    content BYTEA,
    state TEXT NOT NULL CHECK (state IN ('pending', 'done', 'failed')),
    attempts BIGINT NOT NULL DEFAULT 0,
    lease_owner TEXT,
    lease_until BIGINT NOT NULL DEFAULT 0,
    not_before BIGINT NOT NULL DEFAULT 0,
    verification_id TEXT,
    PRIMARY KEY (batch_id, document_index)
  );
  CREATE INDEX batch_documents_pending ON batch_documents (state, not_before);

  CREATE TABLE outbox (
    delivery_id TEXT PRIMARY KEY,
    batch_id TEXT NOT NULL REFERENCES batches(id),
    document_index BIGINT NOT NULL,
    body BYTEA NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts BIGINT NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    lease_owner TEXT,
    lease_until BIGINT NOT NULL DEFAULT 0,
    last_status BIGINT,
    last_error TEXT,
    created_at BIGINT NOT NULL,
    finished_at BIGINT,
    redeliver_at BIGINT
  );
  CREATE INDEX outbox_due ON outbox (state, next_attempt_at);
  CREATE INDEX outbox_batch ON outbox (batch_id, document_index);
  CREATE INDEX outbox_redeliver ON outbox (redeliver_at) WHERE redeliver_at IS NOT NULL;

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
    created_at BIGINT NOT NULL,
    holder TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (key_id, verification_id)
  );
  CREATE INDEX fingerprints_key ON fingerprints (key_id, created_at);
  CREATE INDEX fingerprints_exact ON fingerprints (key_id, exact);
  CREATE INDEX fingerprints_created ON fingerprints (created_at);

  CREATE TABLE delivery_attempts (
    delivery_id TEXT NOT NULL REFERENCES outbox(delivery_id),
    attempt BIGINT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('scheduled', 'redelivery')),
    started_at BIGINT NOT NULL,
    duration_ms BIGINT NOT NULL,
    status BIGINT,
    error TEXT,
    PRIMARY KEY (delivery_id, attempt)
  );

  CREATE TABLE idempotency_keys (
    key_id TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('in_progress', 'done')),
    status BIGINT,
    response BYTEA,
    locked_until BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (key_id, idempotency_key)
  );
  CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at);

  CREATE TABLE api_key_secrets (
    key_hash TEXT PRIMARY KEY,
    key_id TEXT NOT NULL REFERENCES api_keys(id),
    created_at TEXT NOT NULL,
    expires_at TEXT,
    last_used_at TEXT
  );
  CREATE INDEX api_key_secrets_key ON api_key_secrets (key_id);

  CREATE TABLE audit_log (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at TEXT NOT NULL,
    event TEXT NOT NULL,
    key_id TEXT,
    details TEXT NOT NULL
  );
  CREATE INDEX audit_log_at ON audit_log (at);
  CREATE INDEX audit_log_key ON audit_log (key_id, at);
  `,
  `
  CREATE TABLE rate_buckets (
    key_id TEXT PRIMARY KEY,
    tokens DOUBLE PRECISION NOT NULL,
    updated_ms BIGINT NOT NULL
  );
  `,
];
