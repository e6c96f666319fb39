import { describe, expect, test } from "bun:test";
import { analyzePixels } from "../../../../sidecar/forensics/index.ts";
import { seededStatement } from "../../../helpers/statements.ts";
import { decode, genuine, render, resize, toJpeg } from "./page-fixture.ts";

const reliability = (result: Awaited<ReturnType<typeof analyzePixels>>, name: string) =>
  result.traces.find((t) => t.name === name)!.reliability;

describe("how far the pixel traces can be trusted", () => {
  test("a clean 150 dpi page saved at q85 gives full reliability to error-level analysis and none to the noise residual of its noiseless paper", async () => {
    const page = await genuine(1);
    const result = await analyzePixels({ ...page.page, jpeg: page.jpeg }, page.lines);
    expect(reliability(result, "ela")).toBeGreaterThan(0.9);
    expect(reliability(result, "noise")).toBeLessThan(0.1);
    expect(result.heatmap.width).toBeLessThanOrEqual(64);
    expect(result.heatmap.height).toBeLessThanOrEqual(64);
    expect(result.heatmap.data).toHaveLength(result.heatmap.width * result.heatmap.height);
  });

  test("a scanned page, whose paper carries sensor noise, hands the line comparison from error-level analysis to the noise residual", async () => {
    const page = await genuine(1, 85, [], "scanned");
    const result = await analyzePixels({ ...page.page, jpeg: page.jpeg }, page.lines);
    const paperNoise = Number(result.traces.find((t) => t.name === "ela")!.facts.paperNoise);
    expect(paperNoise).toBeGreaterThan(0.25);
    expect(reliability(result, "ela")).toBe(0);
    expect(reliability(result, "noise")).toBeGreaterThan(0.25);
  });

  test("a security print's fine lines are no sensor noise: the noise residual stays unreliable on a clean render over guilloche", async () => {
    const page = await genuine(1, 85, [], "guilloche");
    const result = await analyzePixels({ ...page.page, jpeg: page.jpeg }, page.lines);
    const facts = result.traces.find((t) => t.name === "noise")!.facts;
    // By its mean the paper is as noisy as a scan's; its quietest tenth is flat.
    expect(Number(facts.paperNoise)).toBeGreaterThan(0.25);
    expect(Number(facts.paperFloor)).toBeLessThan(0.05);
    expect(reliability(result, "noise")).toBeLessThan(0.1);
  });

  test("a page heavily compressed at q30 leaves every trace unreliable", async () => {
    const { page, lines } = render(seededStatement(2), 150);
    const jpeg = await toJpeg(page, 30);
    const result = await analyzePixels({ ...(await decode(jpeg)), jpeg }, lines);
    for (const trace of result.traces) expect(trace.reliability).toBeLessThan(0.1);
  });

  test("a page shrunk to 200 pixels wide leaves every trace unreliable", async () => {
    const { page, lines } = render(seededStatement(3), 150);
    const small = await resize(page, 200);
    const scale = small.width / page.width;
    const jpeg = await toJpeg(small, 85);
    const scaled = lines.map((l) => ({
      ...l,
      box: l.box.map((v) => Math.round(v * scale)) as [number, number, number, number],
    }));
    const result = await analyzePixels({ ...(await decode(jpeg)), jpeg }, scaled);
    for (const trace of result.traces) expect(trace.reliability).toBeLessThan(0.2);
  });
});
