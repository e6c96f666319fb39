// The page the sidecar benchmark sends: the seeded A4 bank statement the forensics tests check
// (test/helpers), rendered at a given dpi and saved as a JPEG that declares that dpi, as a
// scanner would.
import sharp from "sharp";
import { renderPrinted } from "../../test/helpers/pages.ts";
import { seededStatement } from "../../test/helpers/statements.ts";

export interface StatementPage {
  dpi: number;
  width: number;
  height: number;
  jpeg: Uint8Array;
}

export async function statementPage(dpi: number, quality = 90): Promise<StatementPage> {
  const { data, width, height } = renderPrinted(seededStatement(1), { dpi });
  const jpeg = await sharp(data, { raw: { width, height, channels: 3 } })
    .withMetadata({ density: dpi })
    .jpeg({ quality })
    .toBuffer();
  return { dpi, width, height, jpeg: new Uint8Array(jpeg) };
}
