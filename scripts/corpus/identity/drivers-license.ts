// Driver's licences. DocXPand ships no licence template, so this is a plain EU-style card
// (numbered fields 1-9, portrait left, no MRZ) drawn as SVG with the committed fonts and
// rendered the same way as the DocXPand templates.
import { formatDate } from "../clock.ts";
import type { Rng } from "../rng.ts";
import { escapeXml, renderSvg } from "../render/svg.ts";
import { photoDataUri, type RenderedDocument } from "./card.ts";
import type { IdentityDocumentData, Person } from "./person.ts";
import { elementBox } from "./template-fill.ts";

const W = 1011;
const H = 638;

export interface LicenceData {
  licenceNumber: string;
  categories: string;
}

export function randomLicence(rng: Rng): LicenceData {
  return {
    licenceNumber: `${rng.digits(2)}${rng.letters(2)}${rng.digits(5)}`,
    categories: rng.pick(["B", "AM/B", "A1/B", "B/BE", "A/B/C1"]),
  };
}

function field(id: string, x: number, y: number, label: string, value: string, size = 30): string {
  return (
    `<text x="${x - 34}" y="${y}" font-family="Space Grotesk Light" font-size="20" fill="#1f3f7a">${escapeXml(label)}</text>` +
    `<text id="${id}" x="${x}" y="${y}" font-family="Space Grotesk Light" font-size="${size}" fill="#111">${escapeXml(value)}</text>`
  );
}

export async function renderDriversLicence(
  p: Person,
  d: IdentityDocumentData,
  l: LicenceData,
  photo: string,
): Promise<RenderedDocument> {
  const values: Record<string, string> = {
    surname_field: p.surname.toUpperCase(),
    given_name_field: p.givenNames.join(" "),
    birth_field: `${formatDate(p.birthDate)} ${p.birthPlace}`,
    issue_date_field: formatDate(d.issueDate),
    expiry_date_field: formatDate(d.expiryDate),
    authority_field: d.authority,
    licence_number_field: l.licenceNumber,
    address_field: `${p.address[0]}, ${p.address[1]}`,
    categories_field: l.categories,
  };
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 ${W} ${H}">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f6d9e4"/><stop offset="0.55" stop-color="#eef0f7"/><stop offset="1" stop-color="#d9e6f3"/></linearGradient>
<pattern id="guilloche" width="24" height="24" patternUnits="userSpaceOnUse"><path d="M0 12 Q6 0 12 12 T24 12" fill="none" stroke="#c9a7c0" stroke-width="0.8"/></pattern></defs>
<rect width="${W}" height="${H}" rx="36" fill="url(#bg)"/><rect width="${W}" height="${H}" rx="36" fill="url(#guilloche)" opacity="0.45"/>
<rect x="24" y="22" width="90" height="62" fill="#1f3f7a"/><text x="69" y="66" text-anchor="middle" font-family="Space Grotesk Light" font-size="30" fill="#f6d24a">EU</text>
<text x="140" y="52" font-family="Space Grotesk Light" font-size="34" fill="#1f3f7a">PERMIS DE CONDUIRE</text>
<text x="140" y="82" font-family="Space Grotesk Light" font-size="20" fill="#1f3f7a">DRIVING LICENCE · FÜHRERSCHEIN · RIJBEWIJS</text>
<image id="photo_image" x="40" y="130" width="260" height="334" preserveAspectRatio="xMidYMid slice" xlink:href="${await photoDataUri(photo)}"/>
${field("surname_field", 370, 150, "1.", values.surname_field as string)}
${field("given_name_field", 370, 200, "2.", values.given_name_field as string)}
${field("birth_field", 370, 250, "3.", values.birth_field as string)}
${field("issue_date_field", 370, 300, "4a.", values.issue_date_field as string, 26)}
${field("expiry_date_field", 640, 300, "4b.", values.expiry_date_field as string, 26)}
${field("authority_field", 370, 345, "4c.", values.authority_field as string, 24)}
${field("licence_number_field", 370, 395, "5.", values.licence_number_field as string)}
${field("address_field", 370, 445, "8.", values.address_field as string, 22)}
${field("categories_field", 370, 495, "9.", values.categories_field as string)}
<text x="40" y="540" font-family="Homemade Apple" font-size="34" fill="#1b1b3a">${escapeXml(p.surname)}</text>
<text x="40" y="600" font-family="Space Grotesk Light" font-size="18" fill="#6b6b80">SPECIMEN · FICTIONAL DOCUMENT</text>
</svg>`;
  const rendered = renderSvg(svg, W);
  const boxes: RenderedDocument["boxes"] = {};
  for (const id of [...Object.keys(values), "photo_image"]) {
    const box = elementBox(svg, id, rendered.width);
    if (box) boxes[id] = box;
  }
  return {
    png: rendered.png,
    width: rendered.width,
    height: rendered.height,
    boxes,
    values,
    template: "docverify/eu_driving_licence",
    photo,
    svg,
  };
}
