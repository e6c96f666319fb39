// The peer the OCR is compared with: @gutenye/ocr-node, the off-the-shelf PP-OCR package for
// Node. It runs in a child process of its own, because it brings its own sharp and ONNX Runtime
// threads and must not share the process it is compared with.
//
// As a child: bun scripts/bench/peer-ocr.ts RUNS FILE... prints, as its last stdout line, a
// JSON array with the ms of each of RUNS passes for every file (after one warm-up pass).

/** ms of `runs` timed passes over each file (times[file][run]), measured in a child process. */
export async function peerOcrTimes(files: string[], runs: number): Promise<number[][]> {
  const child = Bun.spawn([process.execPath, import.meta.path, String(runs), ...files], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = await new Response(child.stdout).text();
  if ((await child.exited) !== 0) throw new Error("the @gutenye/ocr-node run failed");
  return JSON.parse(out.trim().split("\n").at(-1)!) as number[][];
}

async function timePeer(runs: number, files: string[]): Promise<number[][]> {
  const { default: Ocr } = await import("@gutenye/ocr-node");
  const ocr = await Ocr.create();
  for (const file of files) await ocr.detect(file);
  const times = files.map((): number[] => []);
  for (let run = 0; run < runs; run++) {
    for (const [i, file] of files.entries()) {
      const started = performance.now();
      await ocr.detect(file);
      times[i]!.push(performance.now() - started);
    }
  }
  return times;
}

if (import.meta.main) {
  const [runs, ...files] = Bun.argv.slice(2);
  console.log(JSON.stringify(await timePeer(Number(runs), files)));
}
