import { describe, expect, test } from "bun:test";
import { checkUrlTarget, isNetError } from "../../../src/net/guarded-request.ts";

async function outcome(url: string, allowPrivate: boolean): Promise<string> {
  try {
    await checkUrlTarget(new URL(url), allowPrivate);
    return "allowed";
  } catch (error) {
    if (isNetError(error)) return error.kind;
    throw error;
  }
}

describe("checkUrlTarget, as a callbackUrl is checked at submission", () => {
  test("refuses a host name that resolves to loopback unless private URLs are allowed", async () => {
    expect(await outcome("https://localhost/hook", false)).toBe("refused_address");
    expect(await outcome("https://localhost/hook", true)).toBe("allowed");
  });

  test("refuses private and metadata literals without any lookup", async () => {
    for (const url of [
      "https://10.1.2.3/hook",
      "https://169.254.169.254/",
      "https://[fd00:ec2::254]/",
      "https://0x7f.1/",
    ]) {
      expect({ url, kind: await outcome(url, false) }).toEqual({ url, kind: "refused_address" });
    }
  });

  test("allows a public literal, which it checks without connecting", async () => {
    expect(await outcome("https://8.8.8.8/hook", false)).toBe("allowed");
  });

  test("reports a host that does not resolve as dns", async () => {
    expect(await outcome("https://no-such-host.invalid/hook", false)).toBe("dns");
  });
});
