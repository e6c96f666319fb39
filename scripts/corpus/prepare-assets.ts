// One-off: copies the DocXPand files the corpus uses from a DocXPand data folder (templates,
// fonts, photos; QuickSign/docxpand on GitHub) into scripts/corpus/assets,
// so that generation (and the test suite) never reads outside the project. Embedded portraits
// are stripped from the SVGs (the generator injects its own) and photos are resized to the
// size the templates draw them at, which keeps the committed assets to a few MB.
// Run: bun scripts/corpus/prepare-assets.ts path/to/docxpand-data
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import sharp from "sharp";
import { ASSETS_DIR, PHOTOS, TEMPLATES } from "./assets.ts";

if (!process.argv[2]) {
  console.error(
    "usage: bun scripts/corpus/prepare-assets.ts path/to/docxpand-data (the folder holding docxpand/templates)",
  );
  process.exit(2);
}
const source = resolve(process.argv[2]);
const templatesIn = join(source, "docxpand/templates");
const out = join(ASSETS_DIR, "docxpand");

// A 1x1 transparent PNG keeps the <image> elements (and their geometry) valid.
const EMPTY_PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

function stripPortraits(svg: string): string {
  return svg.replace(
    /(<image\b[^>]*\bid="(?:photo_image|ghost_image)"[^>]*?\b(?:xlink:href|href)=")data:image\/[a-z]+;base64,[^"]*"/g,
    `$1${EMPTY_PNG}"`,
  );
}

await mkdir(join(out, "fonts"), { recursive: true });
await mkdir(join(out, "photos"), { recursive: true });
await copyFile(join(source, "LICENSE"), join(out, "LICENSE"));
for (const t of Object.values(TEMPLATES)) {
  await mkdir(join(out, "templates", t.dir), { recursive: true });
  const svg = await readFile(join(templatesIn, t.dir, t.svg), "utf8");
  await writeFile(join(out, "templates", t.dir, t.svg), stripPortraits(svg));
  await copyFile(join(templatesIn, t.dir, "generator.json"), join(out, "templates", t.dir, "generator.json"));
  for (const font of t.fonts) await copyFile(join(templatesIn, t.dir, "fonts", font), join(out, "fonts", font));
}
for (const photo of PHOTOS) {
  // 434x558 is the pixel size at which pp_td3_a draws its portrait at 300 dpi.
  await sharp(join(source, "docxpand/specimens/photos", photo))
    .resize(434, 558, { fit: "cover" })
    .jpeg({ quality: 90 })
    .toFile(join(out, "photos", photo));
}
await copyFile(join(source, "docxpand/specimens/photos/SOURCES.md"), join(out, "photos/SOURCES.md"));
console.error(`assets written to ${out}`);
