import { describe, expect, test } from "bun:test";
import { checkMrz } from "../../../../src/analysis/content/mrz.ts";
import type { CharacterReading } from "../../../../src/analysis/content/text.ts";
import { documentOf, frenchId, page, readingsOf, td1, td2, td3, type LineSpec, type Person } from "./fixtures.ts";

const now = new Date("2025-06-01T12:00:00Z");
const anna: Person = {
  surname: "ERIKSSON",
  given: "ANNA MARIA",
  number: "L898902C3",
  birth: "740812",
  expiry: "340415",
  state: "SWE",
  optional: "ZE184226B",
};

const visualZone: LineSpec[] = [
  { text: "Passport No. / No du passeport", x: 600, y: 100 },
  { text: "L898902C3", x: 600, y: 125 },
  { text: "Surname / Nom", y: 200 },
  { text: "ERIKSSON", y: 225 },
  { text: "Given names / Prénoms", y: 260 },
  { text: "ANNA MARIA", y: 285 },
  { text: "Date of birth / Date de naissance", y: 320 },
  { text: "12 AUG/AOÛT 74", y: 345 },
  { text: "Date of expiry / Date d'expiration", y: 380 },
  { text: "15.04.2034", y: 405 },
];

const zoneLines = (lines: string[], confidence = 0.98): LineSpec[] =>
  lines.map((text, i) => ({ text, y: 1000 + i * 30, confidence }));
const flagsOf = (result: ReturnType<typeof checkMrz>) => result.evidence.map((e) => e.flag);

describe("a genuine MRZ raises nothing", () => {
  test.each([
    ["TD3", td3(anna)],
    ["TD2", td2(anna)],
    ["TD1", td1(anna)],
  ])("in the %s layout, read from OCR, with every check digit reported valid", (layout, lines) => {
    const result = checkMrz(documentOf(page(zoneLines(lines))), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.coverage).toBe(1);
    const zone = (result.facts.zones as Record<string, unknown>[])[0]!;
    expect(zone.layout).toBe(layout);
    expect(Object.values(zone.checkDigits as object).every((v) => v === "valid")).toBe(true);
  });

  test("when read from a PDF text layer", () => {
    const result = checkMrz(documentOf(page(zoneLines(td3(anna)), "pdf")), { now });
    expect(flagsOf(result)).toEqual([]);
    expect((result.facts.zones as { readConfidently: boolean }[])[0]!.readConfidently).toBe(true);
  });

  test("with a visual zone that agrees with it", () => {
    const result = checkMrz(documentOf(page([...visualZone, ...zoneLines(td3(anna))])), { now });
    expect(flagsOf(result)).toEqual([]);
  });

  test("with a visual name that transliterates to the MRZ name", () => {
    const lines = td3({ ...anna, surname: "MUELLER" });
    const visual = visualZone.map((l) => (l.text === "ERIKSSON" ? { ...l, text: "MÜLLER" } : l));
    expect(flagsOf(checkMrz(documentOf(page([...visual, ...zoneLines(lines)])), { now }))).toEqual([]);
  });

  test("and no personal data goes into the facts", () => {
    const facts = JSON.stringify(checkMrz(documentOf(page([...visualZone, ...zoneLines(td3(anna))])), { now }).facts);
    for (const personal of ["ERIKSSON", "ANNA", "L898902C3", "740812", "340415"]) expect(facts).not.toContain(personal);
  });
});

describe("OCR noise on a genuine MRZ is corrected, not flagged", () => {
  const [upper, lower] = td3(anna);
  const noisy: [string, string[]][] = [
    [
      "O read for 0 in dates and check digits",
      [upper!, lower!.replace("7408122", "74O8122").replace("3404159", "34O4159")],
    ],
    ["letters read as digits in the name", [upper!.replace("ERIKSSON", "ER1KSS0N"), lower!]],
    ["'<' read as K, L and C in filler", [upper!.replace("<<<<<<<<", "<K<<L<<C"), lower!.replace("B<<<<<", "BK<<<<")]],
    ["spaces inserted", [upper!.replace("<<ANNA", " << ANNA"), lower!.replace("SWE", " SWE ")]],
    ["'«' for filler and a shortened filler run", [upper!.replace("<<<<<<<<<<", "««««"), lower!]],
    ["a filler run one longer than printed", [upper!.replace("<<<<<", "<<<<<<"), lower!.replace("<<<<<", "<<<<<<")]],
    ["S read for 5 and B for 8 in the birth date", [upper!, lower!.replace("7408122", "74O812Z")]],
  ];
  test.each(noisy)("%s", (_name, lines) => {
    const result = checkMrz(documentOf(page([...visualZone, ...zoneLines(lines)])), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.coverage).toBe(1);
  });

  test("a TD1 with O for 0 in the document number and K for '<' in optional data", () => {
    const card = td1({ ...anna, number: "D23145890", optional: "" });
    const noisyCard = [card[0]!.replace("D23145890", "D2314589O").replace("<<<<<<<<", "<K<<<<<<"), card[1]!, card[2]!];
    const result = checkMrz(documentOf(page(zoneLines(noisyCard))), { now });
    expect(flagsOf(result)).toEqual([]);
    expect((result.facts.zones as { corrected: boolean }[])[0]!.corrected).toBe(true);
  });
});

describe("filler and characters OCR loses from a genuine zone are not taken for fraud", () => {
  const [upper, lower] = td3(anna);

  test("a TD3 zone read at TD2 length, its filler runs shortened, is read as TD3 and passes", () => {
    const [plainUpper, plainLower] = td3({ ...anna, optional: "" });
    const short = [plainUpper!.replace(/<{6,}$/, "<<<"), plainLower!.replace(/<{6,}/, "<<")];
    expect(short.every((line) => line.length < 40)).toBe(true);
    const result = checkMrz(documentOf(page(zoneLines(short))), { now });
    expect(flagsOf(result)).toEqual([]);
    expect((result.facts.zones as { layout: string }[])[0]!.layout).toBe("TD3");
  });

  test("a first line whose box ended where its trailing filler starts still makes a zone", () => {
    const cut = [upper!.replace(/<+$/, "<<"), lower!];
    const result = checkMrz(documentOf(page(zoneLines(cut))), { now });
    expect(flagsOf(result)).toEqual([]);
    expect((result.facts.zones as unknown[]).length).toBe(1);
  });

  test("a W the zone's recogniser dropped (BROWN read BRON) is the page's surname", () => {
    const [u, l] = td3({ ...anna, surname: "BRON", given: "HOLE" });
    const visual: LineSpec[] = [
      { text: "Surname / Nom", y: 200 },
      { text: "BROWN", y: 225 },
    ];
    expect(flagsOf(checkMrz(documentOf(page([...visual, ...zoneLines([u!, l!])])), { now }))).toEqual([]);
    const renamed = visual.map((v) => (v.text === "BROWN" ? { ...v, text: "BRAUN" } : v));
    expect(flagsOf(checkMrz(documentOf(page([...renamed, ...zoneLines([u!, l!])])), { now }))).toEqual([
      "mrz_mismatch",
    ]);
  });

  test("a card's zone whose box began late (AXUNDOV read XUNDOV) is the page's surname", () => {
    // The name opens a TD1 card's third line: a box that began late loses its first letter.
    const person = { ...anna, surname: "AXUNDOV", given: "ELVIN" };
    const [first, second, name] = td1(person);
    const visual: LineSpec[] = [
      { text: "Surname / Nom", y: 200 },
      { text: "AXUNDOV", y: 225 },
      { text: "Given names / Prénoms", y: 260 },
      { text: "ELVIN", y: 285 },
    ];
    const late = `${name!.slice(1)}<`;
    expect(flagsOf(checkMrz(documentOf(page([...visual, ...zoneLines([first!, second!, late])])), { now }))).toEqual(
      [],
    );
    // A first letter changed, not lost, is another name.
    const changed = visual.map((v) => (v.text === "AXUNDOV" ? { ...v, text: "OXUNDOV" } : v));
    expect(flagsOf(checkMrz(documentOf(page([...changed, ...zoneLines([first!, second!, name!])])), { now }))).toEqual([
      "mrz_mismatch",
    ]);
  });

  test("a passport's zone that lost a letter before the name (PCAZEAXUNDOV read PCAEAXUNDOV)", () => {
    // The name's first letter is shifted into the issuing state, which then ends in it.
    const visual: LineSpec[] = [
      { text: "Surname / Nom", y: 200 },
      { text: "AXUNDOV", y: 225 },
    ];
    const shifted = td3({ ...anna, surname: "XUNDOV", given: "AGHA", state: "AEA" });
    expect(flagsOf(checkMrz(documentOf(page([...visual, ...zoneLines(shifted)])), { now }))).not.toContain(
      "mrz_mismatch",
    );
    // A name without that letter, its state intact, is another name.
    const other = td3({ ...anna, surname: "XUNDOV", given: "AGHA", state: "AZE" });
    expect(flagsOf(checkMrz(documentOf(page([...visual, ...zoneLines(other)])), { now }))).toContain("mrz_mismatch");
  });

  test("a name field that opens with filler names no one: its surname is not compared", () => {
    // A sample passport's zone that leaves out its issuing state: the surname is read as the
    // state, and the name field starts at the filler before the given names.
    const shifted = "P<DOE<<JOCELYN<MICHELLE".padEnd(44, "<");
    const visual: LineSpec[] = [
      { text: "Surname / Nom", y: 200 },
      { text: "DOE", y: 225 },
    ];
    const result = checkMrz(documentOf(page([...visual, ...zoneLines([shifted, td3(anna)[1]!])])), { now });
    expect(flagsOf(result)).not.toContain("mrz_mismatch");
  });

  test("a check digit lost with the filler before it is unread, not invalid", () => {
    const lost = [upper!, lower!.slice(0, -1).replace(/<+$/, "<<<<")];
    const result = checkMrz(documentOf(page(zoneLines(lost))), { now });
    expect(flagsOf(result)).toEqual([]);
    expect((result.facts.zones as { checkDigits: Record<string, string> }[])[0]!.checkDigits.composite).toBe("unread");
  });

  test("a document number starting O and Q read as 0 and Q is put right", () => {
    const person = { ...anna, number: "OQ2467446" };
    const [u, l] = td3(person);
    const result = checkMrz(documentOf(page(zoneLines([u!, l!.replace("OQ2467446", "0Q2467446")]))), { now });
    expect(flagsOf(result)).toEqual([]);
  });

  test("an X read as a multiplication sign is an X", () => {
    const [u, l] = td3({ ...anna, number: "XR0795603" });
    expect(flagsOf(checkMrz(documentOf(page(zoneLines([u!, l!.replace("XR0795603", "×R0795603")]))), { now }))).toEqual(
      [],
    );
  });

  test("a T read as 7 in a document number is put right", () => {
    const [u, l] = td3({ ...anna, number: "LT8549989" });
    expect(flagsOf(checkMrz(documentOf(page(zoneLines([u!, l!.replace("LT8549989", "L78549989")]))), { now }))).toEqual(
      [],
    );
  });

  test("a character OCR could not place inside filler counts as filler", () => {
    const garbled = [upper!, lower!.replace("B<<<<<", "B<<?<<")];
    expect(flagsOf(checkMrz(documentOf(page(zoneLines(garbled))), { now }))).toEqual([]);
  });

  test("a zone read at 0.85 whose other check digits agree is trusted, and a broken one is then reported", () => {
    const altered = [upper!, lower!.replace("7408122", "7408152")];
    const result = checkMrz(documentOf(page(zoneLines(altered, 0.85))), { now });
    expect(flagsOf(result)).toContain("mrz_checksum_invalid");
    expect((result.facts.zones as { readConfidently: boolean }[])[0]!.readConfidently).toBe(true);
  });
});

describe("visual values read beside other fields", () => {
  const card = td2({ ...anna, code: "I" });
  const french = (birth: string): LineSpec[] => [
    { text: "Nom", y: 200 },
    { text: "ERIKSSON Sexe:F", y: 225 },
    { text: "Prénom(s)", y: 260 },
    { text: "Sexe:F", y: 285 },
    { text: `Né(e) le: ${birth}`, y: 320 },
  ];

  test("a surname read on one line with the next field's label and value agrees with the MRZ", () => {
    expect(flagsOf(checkMrz(documentOf(page([...french("12.08.1974"), ...zoneLines(card)])), { now }))).toEqual([]);
  });

  test("a birth date labelled Né(e) le is compared with the MRZ", () => {
    const result = checkMrz(documentOf(page([...french("12.08.1971"), ...zoneLines(card)])), { now });
    expect(result.evidence.map((e) => [e.flag, e.measured])).toEqual([["mrz_mismatch", "12.08.1971"]]);
  });

  test("a label read with full-width brackets from OCR's CJK dictionary is still a label", () => {
    const lines = french("12.08.1971").map((l) => ({ ...l, text: l.text.replace("(", "（") }));
    const result = checkMrz(documentOf(page([...lines, ...zoneLines(card)])), { now });
    expect(result.evidence.map((e) => e.flag)).toEqual(["mrz_mismatch"]);
  });

  test("a value printed tight under its label, its box starting above the label box's bottom, is the label's value", () => {
    const lines: LineSpec[] = [
      { text: "Date of birth", y: 500 },
      { text: "12.08.1974", y: 512 },
      { text: "Date of issue", y: 560 },
      { text: "05.09.2020", y: 572 },
    ];
    expect(flagsOf(checkMrz(documentOf(page([...lines, ...zoneLines(td3(anna))])), { now }))).toEqual([]);
    const altered = lines.map((l) => (l.text === "12.08.1974" ? { ...l, text: "12.08.1971" } : l));
    expect(flagsOf(checkMrz(documentOf(page([...altered, ...zoneLines(td3(anna))])), { now }))).toEqual([
      "mrz_mismatch",
    ]);
  });

  test("a birth date read less surely (0.84) is compared, unless one digit OCR confuses explains the difference", () => {
    const dated = (text: string): LineSpec[] => [
      { text: "Date of birth", y: 500 },
      { text, y: 525, confidence: 0.84 },
    ];
    expect(flagsOf(checkMrz(documentOf(page([...dated("12.08.1976"), ...zoneLines(td3(anna))])), { now }))).toEqual([
      "mrz_mismatch",
    ]);
    expect(flagsOf(checkMrz(documentOf(page([...dated("12.08.1971"), ...zoneLines(td3(anna))])), { now }))).toEqual([]);
    expect(
      flagsOf(
        checkMrz(
          documentOf(
            page(
              [...dated("12.08.1976"), ...zoneLines(td3(anna))].map((l) =>
                l.confidence === 0.84 ? { ...l, confidence: 0.7 } : l,
              ),
            ),
          ),
          { now },
        ),
      ),
    ).toEqual([]);
  });

  test("an expiry day read less surely as 13 beside the zone's 15 is a 3 taken for a 5, not a mismatch", () => {
    const expiring = (text: string): LineSpec[] => [
      { text: "Date of expiry", y: 500 },
      { text, y: 525, confidence: 0.84 },
    ];
    const flags = (text: string) =>
      flagsOf(checkMrz(documentOf(page([...expiring(text), ...zoneLines(td3(anna))])), { now }));
    expect(flags("13.04.2034")).toEqual([]);
    // 7 is no look-alike of 5: the same difference elsewhere in the digit is a mismatch.
    expect(flags("17.04.2034")).toEqual(["mrz_mismatch"]);
  });

  test("a date whose every digit was read beyond doubt, under a label read unsurely, has no look-alike excuse", () => {
    const expiring = (label: number, characters?: CharacterReading[], value = 0.99): LineSpec[] => [
      { text: "Date of expiry (8)", y: 500, confidence: label },
      { text: "13.04.2034", y: 525, confidence: value, ...(characters ? { characters } : {}) },
    ];
    const flags = (lines: LineSpec[]) =>
      flagsOf(checkMrz(documentOf(page([...lines, ...zoneLines(td3(anna))])), { now }));
    // A photographed passport: the label at 0.89, the date at 0.99 and each of its digits surely.
    expect(flags(expiring(0.89, readingsOf("13.04.2034")))).toEqual(["mrz_mismatch"]);
    // The 3 read unsurely, with the zone's 5 as its runner-up: a misreading explains it, under a
    // label read surely too, however well the rest of the date's line was read.
    const unsure = { probability: 0.6, alternatives: [{ character: "5", probability: 0.3 }] };
    expect(flags(expiring(0.89, readingsOf("13.04.2034", { 1: unsure })))).toEqual([]);
    expect(flags(expiring(0.99, readingsOf("13.04.2034", { 1: unsure })))).toEqual([]);
    // Without the recogniser's view of each character, a date line read at 0.89 is in doubt as
    // a whole: one digit OCR confuses explains the difference.
    expect(flags(expiring(0.99, undefined, 0.89))).toEqual([]);
  });

  test("given names beside their label without a colon are not guessed from the next field's line (a recaptured card)", () => {
    const recaptured = (given: string, below: string): LineSpec[] => [
      { text: "Nom : ERIKSSON", y: 200 },
      { text: given, y: 260 },
      { text: below, y: 300 },
      { text: "A Brussels", y: 330 },
    ];
    for (const [given, below] of [
      ["Prénom(s) Anna Maria", "Sexe : F"],
      ["Prénom(s)Anna Maria", "SexeF"],
      ["Prénom(s)", "SexeF"],
    ]) {
      expect(flagsOf(checkMrz(documentOf(page([...recaptured(given!, below!), ...zoneLines(card)])), { now }))).toEqual(
        [],
      );
    }
    const renamed = recaptured("Prénom(s) : HANNA MARIA", "Sexe : F");
    expect(flagsOf(checkMrz(documentOf(page([...renamed, ...zoneLines(card)])), { now }))).toEqual(["mrz_mismatch"]);
  });

  test("a document number with W read as VV agrees with the MRZ", () => {
    const [u, l] = td3({ ...anna, number: "VV2661123" });
    const visual: LineSpec[] = [
      { text: "Passport No.", x: 600, y: 100 },
      { text: "WV2661123", x: 600, y: 125 },
    ];
    expect(flagsOf(checkMrz(documentOf(page([...visual, ...zoneLines([u!, l!])])), { now }))).toEqual([]);
  });
});

describe("specimens are samples, not fraud", () => {
  test("a UTO specimen with a broken check digit raises nothing", () => {
    const [upper, lower] = td3({ ...anna, state: "UTO" });
    const broken = lower!.slice(0, 19) + String((Number(lower![19]) + 1) % 10) + lower!.slice(20);
    const result = checkMrz(documentOf(page(zoneLines([upper!, broken]))), { now });
    expect(flagsOf(result)).toEqual([]);
    expect((result.facts.zones as { specimen: boolean }[])[0]!.specimen).toBe(true);
  });

  test("a document marked SPECIMEN that expired long ago raises nothing", () => {
    const lines = td3({ ...anna, expiry: "120415" });
    const result = checkMrz(documentOf(page([{ text: "SPECIMEN", y: 50 }, ...zoneLines(lines)])), { now });
    expect(flagsOf(result)).toEqual([]);
  });
});

describe("expiry is judged against the injected date", () => {
  const lines = td3({ ...anna, expiry: "250415" });
  test("a document that expired before the analysis date raises document_expired", () => {
    const result = checkMrz(documentOf(page(zoneLines(lines))), { now });
    expect(flagsOf(result)).toEqual(["document_expired"]);
    expect(result.evidence[0]!.measured).toBe("2025-04-15");
  });

  test("the same document analysed before it expired raises nothing", () => {
    expect(flagsOf(checkMrz(documentOf(page(zoneLines(lines))), { now: new Date("2025-04-14T00:00:00Z") }))).toEqual(
      [],
    );
  });

  test("a clearly labelled visual expiry date counts when there is no MRZ", () => {
    const card = page([
      { text: "Date of expiry", y: 100 },
      { text: "03.02.2024", y: 125 },
    ]);
    expect(flagsOf(checkMrz(documentOf(card), { now }))).toEqual(["document_expired"]);
    expect(flagsOf(checkMrz(documentOf(card), { now, documentType: "id" }))).toEqual(["document_expired"]);
  });

  test("an offer's or a bill's labelled validity is no document's expiry", () => {
    const offer = page([
      { text: "Offer valid until", y: 100 },
      { text: "03.02.2024", y: 125 },
    ]);
    for (const documentType of ["financial", "utility_bill"] as const)
      expect(flagsOf(checkMrz(documentOf(offer), { now, documentType }))).toEqual([]);
  });
});

describe("France's 2x36 identity card is read by its own rules, not as a broken TD2", () => {
  const corinne = { surname: "BERTHIER", given: "CORINNE", number: "880692310285", birth: "650408" };
  const visual: LineSpec[] = [
    { text: "CARTE NATIONALE D'IDENTITE N° : 880692310285", y: 60 },
    { text: "Nom : BERTHIER", y: 100 },
    { text: "Prénom(s) : CORINNE", y: 140 },
    { text: "Né(e) le : 08.04.1965", y: 180 },
  ];

  test("its check digits are judged as French rules set them, and all hold", () => {
    const result = checkMrz(documentOf(page(zoneLines(frenchId(corinne)))), { now });
    expect(flagsOf(result)).toEqual([]);
    const zone = (result.facts.zones as Record<string, unknown>[])[0]!;
    expect(zone).toMatchObject({ layout: "FRA-ID", documentCode: "ID", issuingState: "FRA" });
    expect(zone.checkDigits).toEqual({ documentNumber: "valid", birthDate: "valid", composite: "valid" });
  });

  test("a department of Corsica (2A) and digits a TD2 would take for letters read right", () => {
    const lines = frenchId({ ...corinne, number: "0506" + "2A0" + "12345", given: "MARIE NOELLE" });
    expect(flagsOf(checkMrz(documentOf(page(zoneLines(lines))), { now }))).toEqual([]);
  });

  test("its names, on two lines, agree with the visual zone", () => {
    expect(flagsOf(checkMrz(documentOf(page([...visual, ...zoneLines(frenchId(corinne))])), { now }))).toEqual([]);
  });

  test("its printed number is the zone's first 12 characters, even where the package cannot read them as dates", () => {
    // An issue month of 57, as on a specimen: the mrz package then gives the number's last five alone.
    const specimen = { ...corinne, number: "175775H55790" };
    const mismatches = (printed: string) =>
      checkMrz(
        documentOf(
          page([
            { ...visual[0]!, text: `CARTE NATIONALE D'IDENTITE N° : ${printed}` },
            ...zoneLines(frenchId(specimen)),
          ]),
        ),
        { now },
      ).evidence.filter((e) => e.flag === "mrz_mismatch");
    expect(mismatches("175775H55790")).toEqual([]);
    expect(mismatches("175775H55791").map((e) => e.message)).toEqual([
      "The documentNumber in the visual zone does not match the MRZ",
    ]);
  });
});

describe("text of another kind is no zone", () => {
  test("an invoice's bank details in MRZ-like characters", () => {
    const invoice: LineSpec[] = [
      { text: "INVOICE 2024-0042", y: 100 },
      { text: "IBAN DE89 3704 0044 0532 0130 00 <<ref>>", y: 900 },
      { text: "BIC COBADEFFXXX << 4400532013000 << 37040044", y: 930 },
    ];
    const result = checkMrz(documentOf(page(invoice)), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.facts.zones).toEqual([]);
  });

  test("rows shaped like a TD2 whose state and nationality are no state's code accuse no one (a till receipt)", () => {
    // A birth-date check digit that fails (0 where 740812 gives 2): judged on a zone, it would
    // accuse.
    const rows = ["IT00ZTOTAL<<RM<<<<<<<<<<<<<<<<<<<<<<", "1234567897041740812" + "0F3404159<<<<<<<6"];
    const result = checkMrz(documentOf(page(zoneLines(rows))), { now });
    expect(flagsOf(result)).toEqual([]);
    expect(result.facts.zones).toEqual([expect.objectContaining({ stateKnown: false })]);
  });

  test("rows of MRZ length with filler but no document code", () => {
    const rows = ["REF<<2024<<0042<<ACME<SUPPLIES<<<<<", "8806923102858<<<<<<<<<6504083F7<<<<"];
    expect(checkMrz(documentOf(page(zoneLines(rows))), { now }).facts.zones).toEqual([]);
  });
});
