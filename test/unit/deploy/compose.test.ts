// docs/deploy/compose.yaml is documentation that runs: no test here starts Docker, so this
// keeps what it says in step with the code. Every DOCVERIFY_ variable it sets is a setting
// the configuration knows, every command it runs is one the CLI has, and the instances agree
// on what README.md "Running several instances" says they must share.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { flagName, knownConfigFlags } from "../../../src/config.ts";
import { runCli } from "../../helpers/service.ts";

interface Service {
  image?: string;
  entrypoint?: string[];
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
}

const compose = Bun.YAML.parse(readFileSync(join(import.meta.dir, "../../../docs/deploy/compose.yaml"), "utf8")) as {
  services: Record<string, Service>;
};
const services = compose.services;
const docverify = Object.entries(services).filter(([, service]) => service.entrypoint?.[0] === "docverify");
const instances = docverify.filter(([, service]) => service.command?.[0] === "serve");

test("it runs PostgreSQL, a migration, one sidecar and two API instances", () => {
  expect(services.postgres?.image).toStartWith("postgres:");
  expect(docverify.map(([name, service]) => [name, service.command?.[0]]).sort()).toEqual([
    ["api-1", "serve"],
    ["api-2", "serve"],
    ["migrate", "migrate"],
    ["sidecar", "sidecar"],
  ]);
});

test("every DOCVERIFY_ variable it sets is a setting of the configuration", () => {
  const known = new Set(knownConfigFlags());
  for (const [, service] of docverify) {
    for (const name of Object.keys(service.environment ?? {}))
      expect(known.has(flagName(name)) ? name : `${name} (unknown)`).toBe(name);
  }
});

test("every command it runs is one the CLI lists", async () => {
  const { stdout } = await runCli(["help"]);
  for (const [, service] of docverify) expect(stdout).toMatch(new RegExp(`^  ${service.command![0]}\\s`, "m"));
});

test("the instances share one database, one key and the sidecar, and start after the migration", () => {
  const [[, first], [, second]] = instances as [[string, Service], [string, Service]];
  expect(first.environment).toEqual(second.environment!);
  expect(first.environment!.DOCVERIFY_DATABASE_URL).toMatch(/^postgres:\/\/[^@]+@postgres:5432\//);
  expect(first.environment!.DOCVERIFY_SECRET_KEY).toBeTruthy();
  const listen = services.sidecar!.environment!.DOCVERIFY_SIDECAR_LISTEN!;
  expect(first.environment!.DOCVERIFY_SIDECAR).toBe(`sidecar:${listen.split(":").at(-1)}`);
  expect(services.migrate!.environment).toEqual(first.environment!);
  for (const [, instance] of instances)
    expect(instance.depends_on?.migrate?.condition).toBe("service_completed_successfully");
  expect(new Set(instances.map(([, instance]) => instance.ports?.[0]?.split(":")[0])).size).toBe(2);
});
