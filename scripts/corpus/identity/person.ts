// Random fictional people and the identity-document data printed about them.
import { addDays, addYears } from "../clock.ts";
import type { Rng } from "../rng.ts";

export interface Person {
  sex: "M" | "F";
  surname: string;
  givenNames: string[];
  birthDate: Date;
  birthPlace: string;
  address: [string, string, string];
  heightCm: number;
  eyes: string;
}

export interface IdentityDocumentData {
  documentNumber: string;
  issuingState: string; // ICAO code, "<"-padded to 3
  nationality: string;
  issueDate: Date;
  expiryDate: Date;
  authority: string;
}

const SURNAMES = [
  "Martin",
  "Bernard",
  "Dubois",
  "Durand",
  "Lefebvre",
  "Moreau",
  "Laurent",
  "Simon",
  "Michel",
  "Garcia",
  "Fournier",
  "Girard",
  "Bonnet",
  "Dupont",
  "Lambert",
  "Fontaine",
  "Rousseau",
  "Vincent",
  "Muller",
  "Schmidt",
  "Schneider",
  "Fischer",
  "Weber",
  "Becker",
  "Hoffmann",
  "Jansen",
  "de Vries",
  "van Dijk",
  "Bakker",
  "Visser",
  "Rossi",
  "Russo",
  "Ferrari",
  "Esposito",
  "Romano",
  "Yilmaz",
  "Kaya",
  "Demir",
  "Sahin",
  "Celik",
  "Smith",
  "Jones",
  "Taylor",
  "Brown",
  "Williams",
  "Lopez",
  "Martinez",
  "Sanchez",
  "Perez",
  "Gomez",
  "Renaud",
  "Marchand",
  "Chevalier",
];
const GIVEN_M = [
  "Jean",
  "Pierre",
  "Louis",
  "Lucas",
  "Hugo",
  "Thomas",
  "Nicolas",
  "Julien",
  "Antoine",
  "Paul",
  "Lukas",
  "Jonas",
  "Felix",
  "Daan",
  "Sem",
  "Marco",
  "Luca",
  "Emre",
  "Mehmet",
  "Oliver",
  "Jack",
  "Harry",
  "Pablo",
  "Javier",
  "Adrien",
  "Mathis",
  "Victor",
  "Remi",
  "Olivier",
  "Karim",
];
const GIVEN_F = [
  "Marie",
  "Camille",
  "Lea",
  "Manon",
  "Chloe",
  "Emma",
  "Julie",
  "Sarah",
  "Claire",
  "Anne",
  "Mia",
  "Hannah",
  "Lena",
  "Sophie",
  "Fleur",
  "Giulia",
  "Sofia",
  "Elif",
  "Zeynep",
  "Amelia",
  "Olivia",
  "Lucia",
  "Carmen",
  "Ines",
  "Louise",
  "Alice",
  "Juliette",
  "Nadia",
  "Helene",
  "Agathe",
];
const PLACES = [
  "Paris",
  "Lyon",
  "Marseille",
  "Toulouse",
  "Nantes",
  "Lille",
  "Rennes",
  "Bordeaux",
  "Berlin",
  "Hamburg",
  "Munich",
  "Cologne",
  "Amsterdam",
  "Utrecht",
  "Rotterdam",
  "Milano",
  "Torino",
  "Madrid",
  "Sevilla",
  "Istanbul",
  "Izmir",
  "London",
  "Leeds",
  "Brussels",
  "Liege",
  "Geneva",
];
const STREETS = [
  "rue des Lilas",
  "avenue Victor Hugo",
  "rue de la Gare",
  "boulevard Voltaire",
  "rue Pasteur",
  "Hauptstrasse",
  "Bahnhofstrasse",
  "Kerkstraat",
  "Molenweg",
  "Via Roma",
  "Calle Mayor",
  "High Street",
  "Station Road",
  "rue du Moulin",
  "allee des Tilleuls",
  "chemin des Vignes",
];
const EYES = ["BLUE", "BROWN", "GREEN", "GREY", "HAZEL"];
// Real ICAO codes: the `mrz` package validates states against the ICAO list, and the
// templates' fictional countries have no code of their own.
const STATES = ["FRA", "BEL", "LUX", "NLD", "D<<", "ITA", "ESP", "AUT", "CHE", "PRT"];

export function randomPerson(rng: Rng, today: Date): Person {
  const sex = rng.chance(0.5) ? "M" : "F";
  const given = sex === "M" ? GIVEN_M : GIVEN_F;
  const names = rng.shuffle(given).slice(0, rng.int(1, 3));
  const surname = rng.chance(0.12) ? `${rng.pick(SURNAMES)}-${rng.pick(SURNAMES)}` : rng.pick(SURNAMES);
  const birthDate = addDays(today, -rng.int(19 * 365, 80 * 365));
  const city = rng.pick(PLACES);
  const postcode = String(rng.int(10000, 98999));
  return {
    sex,
    surname,
    givenNames: names,
    birthDate,
    birthPlace: city,
    address: [
      `${rng.int(1, 180)} ${rng.pick(STREETS)}`,
      `${postcode} ${rng.pick(PLACES)}`,
      rng.chance(0.3) ? `Apt ${rng.int(1, 60)}` : "",
    ],
    heightCm: sex === "M" ? rng.int(165, 195) : rng.int(152, 182),
    eyes: rng.pick(EYES),
  };
}

/** A document issued in the last 9 years and valid 10: never expired on `today`. */
export function randomIdentityDocument(rng: Rng, today: Date): IdentityDocumentData {
  const issueDate = addDays(today, -rng.int(30, 9 * 365));
  const state = rng.pick(STATES);
  return {
    documentNumber: `${rng.letters(2)}${rng.digits(7)}`,
    issuingState: state,
    nationality: rng.chance(0.9) ? state : rng.pick(STATES),
    issueDate,
    expiryDate: addDays(addYears(issueDate, 10), -1),
    authority: `Prefecture de ${rng.pick(PLACES)}`.toUpperCase(),
  };
}

export function fullName(p: Person): string {
  return `${p.givenNames.join(" ")} ${p.surname}`;
}
