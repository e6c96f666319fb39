// Where the committed DocXPand assets live and which of them each template needs.
import { join } from "node:path";

export const ASSETS_DIR = join(import.meta.dir, "assets");
const DOCXPAND_DIR = join(ASSETS_DIR, "docxpand");
export const FONTS_DIR = join(DOCXPAND_DIR, "fonts");
export const PHOTOS_DIR = join(DOCXPAND_DIR, "photos");

export type TemplateId = "pp_td3_a" | "id_card_td2_a" | "id_card_td1_a";

export interface TemplateAsset {
  dir: TemplateId;
  svg: string;
  fonts: readonly string[];
}

export const TEMPLATES: Record<TemplateId, TemplateAsset> = {
  pp_td3_a: {
    dir: "pp_td3_a",
    svg: "front.svg",
    fonts: ["OCR-B.ttf", "OpenSans-VariableFont_wdth,wght.ttf", "Codystar-Regular.ttf"],
  },
  id_card_td2_a: {
    dir: "id_card_td2_a",
    svg: "front.svg",
    fonts: ["OCR-B.ttf", "Bellefair-Regular.ttf", "Gill-Sans.otf", "HomemadeApple-Regular.ttf"],
  },
  id_card_td1_a: {
    dir: "id_card_td1_a",
    svg: "back.svg",
    fonts: ["OCR-B.ttf", "SpaceGrotesk-VariableFont_wght.ttf"],
  },
};

export const PHOTOS = ["man_1.jpg", "man_2.jpg", "woman_1.jpg", "woman_2.jpg"] as const;

export function templateSvgPath(t: TemplateId): string {
  return join(DOCXPAND_DIR, "templates", t, TEMPLATES[t].svg);
}

function fontPath(file: string): string {
  return join(FONTS_DIR, file);
}

export const ALL_FONT_FILES: readonly string[] = [...new Set(Object.values(TEMPLATES).flatMap((t) => t.fonts))].map(
  fontPath,
);
