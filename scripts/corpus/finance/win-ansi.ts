// The generators draw with the standard PDF fonts, whose WinAnsi encoding puts the euro
// sign at byte 0x80; pdf/edit.ts reads and writes shown strings a byte per character
// (Latin-1), where every other character the finance documents print has its own code.
const WIN_ANSI_ONLY: Record<string, string> = { "€": "\x80" };

/** `text` as the bytes a standard-font PDF shows it with, one character per byte. */
export const shownBytes = (text: string): string => text.replace(/€/g, (c) => WIN_ANSI_ONLY[c]!);
