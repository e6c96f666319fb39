import { createHmac } from "node:crypto";

/** `sha256=` + lowercase hex HMAC-SHA256 of the exact body bytes (GitHub's scheme). */
export const signBody = (secret: string, body: Uint8Array): string => "sha256=" + createHmac("sha256", secret).update(body).digest("hex");
