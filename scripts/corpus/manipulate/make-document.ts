// One manipulated document: its base's pixels edited by the pixel worker (or left alone for a
// genuine one), saved by an image editor, sent down its capture path and maybe through a
// messaging app, with the edited boxes carried into the final file's pixels at every step.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import { PHOTOS, PHOTOS_DIR } from "../assets.ts";
import { randomPerson } from "../identity/person.ts";
import { type CapturedImage, messagingResave } from "../image/capture.ts";
import { decode, EDITORS, saveEdited } from "../image/forge.ts";
import type { ForgeryRegion, MadeDocument } from "../labels.ts";
import type { Box } from "../render/svg.ts";
import type { Rng } from "../rng.ts";
import { alterValue } from "./alter.ts";
import { amountLayer, type FinanceBase, raiseAmount } from "./finance-bases.ts";
import { drawIdentity, fieldBox, type IdentityBase, PORTRAIT, TARGET_FIELDS } from "./bases.ts";
import { photographScreen, printAndPhotograph } from "./capture-paths.ts";
import type { PixelWorker } from "./pixel-worker.ts";
import type { PlannedManipulation } from "./plan.ts";
import { textLayer } from "./text-layer.ts";

export interface Context {
  worker: PixelWorker;
  /** A scratch folder for this document's intermediate files. */
  scratch: string;
  dir: string;
  today: Date;
  /** Every identity base of the folder, for donors of the same template. */
  identity: readonly IdentityBase[];
  /** Finance bases, each with the path of its exported page image. */
  finance: ReadonlyMap<string, { base: FinanceBase; path: string }>;
}

interface Edit {
  /** The edited rendering (PNG). */
  path: string;
  regions: ForgeryRegion[];
  step: string;
}

const region = (field: string, box: Box, from: string, to: string): ForgeryRegion => ({
  page: 0,
  unit: "px",
  box,
  field,
  from,
  to,
});

async function portraitSwap(rng: Rng, ctx: Context, base: IdentityBase, basePath: string): Promise<Edit> {
  const field = PORTRAIT[base.template];
  const donor = rng.pick(PHOTOS.filter((p) => p !== base.rendered.photo));
  const blend = rng.chance(0.5) ? "seamless" : "feather";
  const out = join(ctx.scratch, "edited.png");
  const { regions } = await ctx.worker.call<{ regions: Box[] }>("portrait_swap", {
    base: basePath,
    donor: join(PHOTOS_DIR, donor),
    out,
    box: fieldBox(base, field),
    grow: rng.chance(0.5) ? rng.int(1, 6) : 0,
    zoom: rng.float(0.78, 1),
    dx: rng.float(-0.5, 0.5),
    dy: rng.float(-0.5, 0.5),
    grey: field === "ghost_image",
    match: rng.float(0.7, 1),
    blend,
    feather: rng.float(1.5, 5),
  });
  return {
    path: out,
    regions: regions.map((b) => region(field, b, base.rendered.photo ?? "", donor)),
    step: `opencv:portrait-swap:${blend}`,
  };
}

/**
 * How widely an inpaint-and-retype edit's parameters are drawn. A fixed dilation is passed
 * as a number and draws nothing from the generator, so each caller's sequence of draws, and
 * with it every document of a seed, stays what it was.
 */
interface RetypeRanges {
  pad: [number, number];
  threshold: [number, number];
  dilate: number | [number, number];
  radius: [number, number];
  /** The new text's offset, up to this many pixels each way. */
  shift: number;
  soften: [number, number];
}

/** The text under `box` erased (inpainted) and the layer's new text written in its place. */
async function retype(
  rng: Rng,
  ctx: Context,
  basePath: string,
  layer: string,
  box: Box,
  r: RetypeRanges,
  toRegion: (b: Box) => ForgeryRegion,
): Promise<Edit> {
  const method = rng.chance(0.5) ? "telea" : "ns";
  const select = rng.chance(0.6) ? "ink" : "rect";
  const out = join(ctx.scratch, "edited.png");
  const { regions } = await ctx.worker.call<{ regions: Box[] }>("inpaint_retype", {
    base: basePath,
    text: layer,
    out,
    box,
    pad: rng.int(...r.pad),
    select,
    threshold: rng.int(...r.threshold),
    dilate: typeof r.dilate === "number" ? r.dilate : rng.int(...r.dilate),
    method,
    radius: rng.int(...r.radius),
    dx: rng.float(-r.shift, r.shift),
    dy: rng.float(-r.shift, r.shift),
    soften: rng.chance(0.5) ? rng.float(...r.soften) : 0,
    ink_jitter: [rng.int(-6, 6), rng.int(-6, 6), rng.int(-6, 6)],
  });
  return { path: out, regions: regions.map(toRegion), step: `opencv:inpaint-${method}-${select}+retype` };
}

async function inpaintRetype(rng: Rng, ctx: Context, base: IdentityBase, basePath: string): Promise<Edit> {
  const field = rng.pick(TARGET_FIELDS[base.template].filter((f) => base.rendered.boxes[f]));
  const from = base.rendered.values[field] ?? "";
  const to = alterValue(rng, from, randomPerson(rng, ctx.today).surname);
  const layer = join(ctx.scratch, "text.png");
  await writeFile(layer, textLayer(base.rendered.svg, field, to, base.rendered.width));
  const ranges: RetypeRanges = {
    pad: [2, 4],
    threshold: [30, 50],
    dilate: [1, 2],
    radius: [3, 6],
    shift: 0.8,
    soften: [0.3, 0.6],
  };
  return retype(rng, ctx, basePath, layer, fieldBox(base, field), ranges, (b) => region(field, b, from, to));
}

async function pasteField(rng: Rng, ctx: Context, base: IdentityBase, basePath: string): Promise<Edit> {
  // Another card of the same model: from the folder, or (a small corpus holds one of each)
  // drawn afresh the way the corpus draws its cards.
  const others = ctx.identity.filter((d) => d.template === base.template && d.label.id !== base.label.id);
  let donor: { rendered: IdentityBase["rendered"]; path: string; id: string };
  if (others.length > 0) {
    const d = rng.pick(others);
    donor = { rendered: d.rendered, path: join(ctx.dir, d.label.file), id: d.label.id };
  } else {
    const rendered = await drawIdentity(rng, ctx.today, base.template);
    donor = { rendered, path: join(ctx.scratch, "donor.png"), id: "drawn" };
    await writeFile(donor.path, rendered.png);
  }
  const candidates = TARGET_FIELDS[base.template].filter(
    (f) => base.rendered.boxes[f] && donor.rendered.boxes[f] && donor.rendered.values[f] !== base.rendered.values[f],
  );
  if (candidates.length === 0) throw new Error(`${donor.id} and ${base.label.id} print the same values`);
  const field = rng.pick(candidates);
  const a = fieldBox(base, field);
  const b = fieldBox(donor, field);
  const pad = rng.int(3, 6);
  const x = Math.min(a.x, b.x) - pad;
  const y = Math.min(a.y, b.y) - pad;
  const box = { x, y, w: Math.max(a.x + a.w, b.x + b.w) + pad - x, h: Math.max(a.y + a.h, b.y + b.h) + pad - y };
  const out = join(ctx.scratch, "edited.png");
  const { regions } = await ctx.worker.call<{ regions: Box[] }>("paste_field", {
    base: basePath,
    donor: donor.path,
    out,
    box,
    dx: rng.int(-2, 2),
    dy: rng.int(-2, 2),
    gain: [rng.float(0.96, 1.04), rng.float(0.96, 1.04), rng.float(0.96, 1.04)],
    bias: [rng.float(-5, 5), rng.float(-5, 5), rng.float(-5, 5)],
    feather: rng.chance(0.5) ? rng.float(1, 2.5) : 0,
  });
  const to = donor.rendered.values[field] ?? "";
  return {
    path: out,
    regions: regions.map((r) => region(field, r, base.rendered.values[field] ?? "", to)),
    step: `opencv:paste-field:from-${donor.id}`,
  };
}

/** An amount on a statement, payslip or bill erased and retyped larger. */
async function inpaintAmount(rng: Rng, ctx: Context, base: FinanceBase, basePath: string): Promise<Edit> {
  const amount = rng.pick(base.amounts);
  const to = raiseAmount(rng, amount.text);
  const layer = join(ctx.scratch, "text.png");
  await writeFile(layer, await amountLayer(base, amount, to));
  // Printed amounts are small and dense: a tighter mask and a fixed one-pixel dilation.
  const ranges: RetypeRanges = {
    pad: [2, 3],
    threshold: [40, 70],
    dilate: 1,
    radius: [2, 4],
    shift: 0.6,
    soften: [0.2, 0.5],
  };
  return retype(rng, ctx, basePath, layer, amount.box, ranges, (b) => region("amount", b, amount.text, to));
}

function clipTo(b: Box, width: number, height: number): Box {
  const x = Math.max(0, Math.min(width - 1, b.x));
  const y = Math.max(0, Math.min(height - 1, b.y));
  return { x, y, w: Math.max(1, Math.min(width, b.x + b.w) - x), h: Math.max(1, Math.min(height, b.y + b.h) - y) };
}

async function edited(
  doc: PlannedManipulation,
  rng: Rng,
  ctx: Context,
  identity: IdentityBase | undefined,
  finance: FinanceBase | undefined,
  basePath: string,
): Promise<Edit | undefined> {
  if (doc.kind === "image_inpaint_retype")
    return finance ? inpaintAmount(rng, ctx, finance, basePath) : inpaintRetype(rng, ctx, identity!, basePath);
  if (doc.kind !== "image_portrait_swap" && doc.kind !== "image_paste_field") return undefined;
  if (!identity) throw new Error(`${doc.kind} needs an identity document, not ${doc.base.id}`);
  return doc.kind === "image_portrait_swap"
    ? portraitSwap(rng, ctx, identity, basePath)
    : pasteField(rng, ctx, identity, basePath);
}

export async function makeManipulated(doc: PlannedManipulation, rng: Rng, ctx: Context): Promise<MadeDocument> {
  const identity = ctx.identity.find((b) => b.label.id === doc.base.id);
  const finance = ctx.finance.get(doc.base.id);
  if (!identity && !finance) throw new Error(`base ${doc.base.id} was not loaded`);
  const basePath = identity ? join(ctx.dir, identity.label.file) : finance!.path;
  const { width, height } = identity ? identity.rendered : finance!.base;
  // What happened to the base before the manipulation: drawn as an image, or exported from its PDF.
  const history = [...doc.base.history, ...(finance ? ["mupdf:render"] : []), `base:${doc.base.id}`];
  const edit = await edited(doc, rng, ctx, identity, finance?.base, basePath);

  // The base's PNG is already in memory (the identity redraw was checked equal to the file; the
  // finance export was written from it).
  const rendering: CapturedImage = {
    bytes: identity ? identity.rendered.png : finance!.base.png,
    format: "png",
    width,
    height,
    map: (b) => b,
    history: [],
  };
  let img = rendering;
  let software: string | undefined;
  if (edit || doc.path === "editor") {
    // Opened in an image editor and saved: the forger's save, or a genuine image re-saved as it
    // was.
    software = rng.chance(0.5) ? rng.pick(EDITORS) : undefined;
    // Transparent card corners become white, as an editor's JPEG export makes them.
    const pixels = await decode(
      await sharp(edit ? await readFile(edit.path) : rendering.bytes)
        .flatten({ background: "#ffffff" })
        .png()
        .toBuffer(),
    );
    img = await saveEdited(rng, rendering, pixels, [], { software, keepCameraExif: false, when: ctx.today });
  }
  if (doc.path !== "editor") {
    const src = { path: join(ctx.scratch, `before-capture.${img.format === "png" ? "png" : "jpg"}`), width, height };
    await writeFile(src.path, img.bytes);
    const captured =
      doc.path === "print_photo"
        ? await printAndPhotograph(rng, ctx.worker, src, ctx.scratch, ctx.today)
        : await photographScreen(rng, ctx.worker, src, ctx.scratch, ctx.today);
    img = { ...captured, history: [...img.history, ...captured.history] };
    if (doc.messaging) img = await messagingResave(rng, img);
  }
  const meta = await sharp(img.bytes).metadata();
  const W = meta.width ?? img.width;
  const H = meta.height ?? img.height;
  const regions = edit?.regions.map((r) => ({ ...r, box: clipTo(img.map(r.box), W, H) }));
  return {
    generator: "opencv",
    source: doc.base.source,
    bytes: img.bytes,
    format: img.format,
    history: [...history, ...(edit ? [edit.step] : []), ...img.history],
    mrz: doc.base.mrz,
    forgery: regions ? { regions, software } : undefined,
  };
}
