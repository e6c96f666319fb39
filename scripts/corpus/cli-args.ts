// The arguments both corpus generators take: --seed N --size small|full --out DIR.
import { parseArgs } from "node:util";
import type { CorpusSize } from "./plan.ts";

export interface CorpusArgs {
  seed: number;
  size: CorpusSize;
  out: string;
}

export function corpusArgs(args: string[] = Bun.argv.slice(2)): CorpusArgs {
  const { values } = parseArgs({
    args,
    options: {
      seed: { type: "string", default: "42" },
      size: { type: "string", default: "small" },
      out: { type: "string" },
    },
  });
  const seed = Number(values.seed);
  if (!Number.isInteger(seed)) throw new Error("--seed must be an integer");
  if (values.size !== "small" && values.size !== "full") throw new Error("--size must be small or full");
  if (!values.out) throw new Error("--out DIR is required");
  return { seed, size: values.size, out: values.out };
}
