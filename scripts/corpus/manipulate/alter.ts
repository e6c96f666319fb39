// The value a forger types instead of the printed one: a year moved by a few, one digit of a
// number changed, or another surname.
import type { Rng } from "../rng.ts";

export function alterValue(rng: Rng, value: string, otherSurname: string): string {
  const year = value.match(/(?:19|20)\d\d/);
  if (year && year.index !== undefined) {
    const shifted = Number(year[0]) + (rng.chance(0.5) ? -1 : 1) * rng.int(1, 6);
    return value.slice(0, year.index) + String(shifted) + value.slice(year.index + 4);
  }
  // Never the leading digit: a changed first digit is a change of magnitude nobody makes.
  const digits = [...value].map((c, i) => (c >= "0" && c <= "9" ? i : -1)).filter((i) => i > 0);
  if (digits.length === 0) {
    const name = value === value.toUpperCase() ? otherSurname.toUpperCase() : otherSurname;
    return name === value ? `${name}E` : name;
  }
  for (;;) {
    const i = rng.pick(digits);
    const d = String(rng.int(0, 9));
    if (d !== value[i]) return value.slice(0, i) + d + value.slice(i + 1);
  }
}
