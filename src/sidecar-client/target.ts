// One sidecar address: a channel carrying the Analyzer and Health clients, and what the client
// last learnt about its health.
import {
  type ChannelCredentials,
  type ChannelOptions,
  Metadata,
  type ServiceError,
  connectivityState,
  credentials,
  status,
} from "@grpc/grpc-js";
import { isIP } from "node:net";
import { protos } from "../../proto/load.ts";
import type { AnalyzeDocumentResponse__Output } from "../../proto/generated/docverify/sidecar/v1/AnalyzeDocumentResponse.ts";
import type { AnalyzerClient } from "../../proto/generated/docverify/sidecar/v1/Analyzer.ts";
import type { DocumentFormat } from "../../proto/generated/docverify/sidecar/v1/DocumentFormat.ts";
import type { HealthClient } from "../../proto/generated/grpc/health/v1/Health.ts";
import type { IntakeDocument } from "../intake/document.ts";

/** PEM contents. `ca` verifies the sidecar; `cert` and `key` identify this client (mutual TLS). */
export interface ClientTls {
  ca?: Uint8Array | string;
  cert?: Uint8Array | string;
  key?: Uint8Array | string;
  /**
   * Name to verify in the sidecar's certificate when it differs from the address's host.
   * Required for an IP address: Bun's TLS refuses an IP as the server name (SNI) grpc-js sends.
   */
  serverName?: string;
}

const FORMATS: Record<IntakeDocument["format"], DocumentFormat> = {
  jpeg: "DOCUMENT_FORMAT_JPEG",
  png: "DOCUMENT_FORMAT_PNG",
  pdf: "DOCUMENT_FORMAT_PDF",
};

const CHANNEL_OPTIONS: ChannelOptions = {
  "grpc.max_receive_message_length": 64 * 1024 * 1024,
  // grpc-js waits up to 120 s between reconnection attempts by default: a restarted sidecar
  // must be found again within a couple of seconds.
  "grpc.initial_reconnect_backoff_ms": 250,
  "grpc.max_reconnect_backoff_ms": 2_000,
  // A remote sidecar host that vanishes without closing its connections is noticed.
  "grpc.keepalive_time_ms": 30_000,
  "grpc.keepalive_timeout_ms": 10_000,
  // Retrying is the client's own decision (client.ts), made across sidecars.
  "grpc.enable_retries": 0,
};

export function channelCredentials(tls: ClientTls | undefined): ChannelCredentials {
  if (!tls) return credentials.createInsecure();
  const pem = (value: Uint8Array | string | undefined) => (value === undefined ? null : Buffer.from(value));
  return credentials.createSsl(pem(tls.ca), pem(tls.key), pem(tls.cert));
}

function unavailableError(details: string): ServiceError {
  return Object.assign(new Error(`${status.UNAVAILABLE} UNAVAILABLE: ${details}`), {
    code: status.UNAVAILABLE,
    details,
    metadata: new Metadata(),
  });
}

export class SidecarTarget {
  readonly analyzer: AnalyzerClient;
  private readonly health: HealthClient;
  /**
   * Last health answer: true SERVING, false anything else or no answer, undefined not asked yet.
   */
  serving: boolean | undefined;
  /** Set when a call found it unavailable: skipped until then unless nothing else is left. */
  downUntil = 0;

  constructor(
    readonly address: string,
    creds: ChannelCredentials,
    tls: ClientTls | undefined,
  ) {
    if (tls && !tls.serverName && isIP(address.slice(0, address.lastIndexOf(":")).replace(/^\[|\]$/g, "")) !== 0) {
      throw new Error(
        `TLS to ${address} needs a server name to verify (the name in the sidecar's certificate): Bun cannot use an IP address as TLS server name`,
      );
    }
    const options = tls?.serverName
      ? { ...CHANNEL_OPTIONS, "grpc.ssl_target_name_override": tls.serverName }
      : CHANNEL_OPTIONS;
    const { analyzer, health } = protos();
    this.analyzer = new analyzer.Analyzer(address, creds, options);
    this.health = new health.Health(address, creds, { channelOverride: this.analyzer.getChannel() });
  }

  /** Asks grpc.health.v1 and remembers the answer. */
  async check(timeoutMs: number): Promise<boolean> {
    const serving = await new Promise<boolean>((resolve) =>
      this.health.check({ service: "" }, { deadline: Date.now() + timeoutMs }, (error, response) =>
        resolve(!error && response?.status === "SERVING"),
      ),
    );
    this.serving = serving;
    return serving;
  }

  /**
   * Resolves once the channel is connected. Rejects with a ServiceError UNAVAILABLE while the
   * channel is failing (rather than waiting out grpc-js's reconnection backoff), or at `deadline`.
   */
  waitConnected(deadline: number): Promise<void> {
    const channel = this.analyzer.getChannel();
    return new Promise((resolve, reject) => {
      const failed = () => reject(unavailableError(`no connection to ${this.address}`));
      const watch = () => {
        const state = channel.getConnectivityState(true);
        if (state === connectivityState.READY) return resolve();
        if (state === connectivityState.TRANSIENT_FAILURE || state === connectivityState.SHUTDOWN) return failed();
        channel.watchConnectivityState(state, deadline, (error) => (error ? failed() : watch()));
      };
      watch();
    });
  }

  /** One AnalyzeDocument call: header, chunks with flow control, half-close. */
  analyze(document: IntakeDocument, deadline: number, chunkBytes: number): Promise<AnalyzeDocumentResponse__Output> {
    return new Promise((resolve, reject) => {
      let finished = false;
      let wake: (() => void) | undefined;
      const call = this.analyzer.analyzeDocument({ deadline }, (error, response) => {
        finished = true;
        wake?.();
        if (error) reject(error);
        else if (!response) reject(unavailableError("the sidecar answered nothing"));
        else resolve(response);
      });
      const send = async () => {
        const { bytes } = document;
        call.write({ header: { format: FORMATS[document.format], sizeBytes: bytes.length } });
        for (let offset = 0; offset < bytes.length && !finished; offset += chunkBytes) {
          if (!call.write({ chunk: bytes.subarray(offset, offset + chunkBytes) })) {
            // Waits for the sidecar to read, or for the call to end (a refusal stops the upload).
            await new Promise<void>((resume) => {
              wake = resume;
              call.once("drain", resume);
            });
            call.removeAllListeners("drain");
          }
        }
        if (!finished) call.end();
      };
      send().catch(reject);
    });
  }

  close(): void {
    this.analyzer.close();
  }
}
