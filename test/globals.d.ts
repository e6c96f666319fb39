// Tests read JSON bodies whose shape they assert on at run time; `any` spares a cast at
// every `await response.json()`.
interface Response {
  json(): Promise<any>;
}
type BodyInit = ConstructorParameters<typeof Response>[0];
