// Quantization-table signatures of image editors whose tables are not IJG-scaled.
// Identified by the sums of the luminance and chrominance tables together with the
// luminance sampling factors, the way GIMP's jpegqual tool catalogues them; a sum pair
// is only trusted when the tables are not IJG tables (IJG sums are a different series).

export interface EditorTableSignature {
  software: string;
  setting: string;
  lumaSum: number;
  chromaSum: number;
}

const PHOTOSHOP_CS2: Array<[string, number, number]> = [
  ["quality 12", 95, 166],
  ["quality 11", 232, 443],
  ["quality 10", 406, 722],
  ["quality 9", 539, 801],
  ["quality 8", 649, 853],
  ["quality 7", 786, 926],
  ["quality 6", 717, 782],
  ["quality 5", 844, 849],
  ["quality 4", 962, 892],
  ["quality 3", 1068, 941],
  ["quality 2", 1281, 998],
  ["quality 1", 1484, 1083],
  ["quality 0", 1582, 1108],
  ["save for web 100", 95, 168],
  ["save for web 90", 234, 445],
  ["save for web 85", 339, 670],
  ["save for web 80", 406, 724],
  ["save for web 75", 525, 941],
  ["save for web 70", 646, 1149],
  ["save for web 65", 803, 1428],
  ["save for web 60", 974, 1769],
  ["save for web 55", 1085, 1996],
  ["save for web 50", 1221, 1348],
  ["save for web 40", 1821, 1997],
  ["save for web 30", 2223, 2464],
  ["save for web 20", 2575, 2903],
  ["save for web 10", 3514, 3738],
];

const PHOTOSHOP_CS: Array<[string, number, number]> = [
  ["quality 12", 109, 171],
  ["quality 11", 303, 466],
  ["quality 10", 535, 750],
  ["quality 9", 668, 830],
  ["quality 8", 794, 895],
  ["quality 7", 971, 950],
  ["quality 6", 884, 831],
  ["quality 5", 1032, 889],
  ["quality 4", 1126, 940],
  ["quality 3", 1216, 977],
];

const EDITOR_TABLE_SIGNATURES: EditorTableSignature[] = [
  ...PHOTOSHOP_CS2.map(([setting, lumaSum, chromaSum]) => ({
    software: "Adobe Photoshop",
    setting,
    lumaSum,
    chromaSum,
  })),
  ...PHOTOSHOP_CS.map(([setting, lumaSum, chromaSum]) => ({
    software: "Adobe Photoshop",
    setting,
    lumaSum,
    chromaSum,
  })),
];

export const matchEditorTables = (lumaSum: number, chromaSum: number): EditorTableSignature | undefined =>
  EDITOR_TABLE_SIGNATURES.find((s) => s.lumaSum === lumaSum && s.chromaSum === chromaSum);
