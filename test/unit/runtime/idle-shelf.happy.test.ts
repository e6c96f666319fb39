// The shelf both worker pools keep idle workers on: the most recent is taken first, one left
// waiting past its time is expired, and a closing pool drains the rest without expiring them.
import { expect, test } from "bun:test";
import { createIdleShelf } from "../../../src/runtime/idle-shelf.ts";

test("hands back the most recently put, expires what waits too long, and drains the rest", async () => {
  const expired: string[] = [];
  const shelf = createIdleShelf<string>(40, (item) => expired.push(item));
  shelf.put("a");
  shelf.put("b");
  expect(shelf.take()).toBe("b");
  await Bun.sleep(80);
  expect(expired).toEqual(["a"]);
  expect(shelf.take()).toBeUndefined();
  // Taken in time, it does not expire; drained, nothing expires.
  shelf.put("c");
  expect(shelf.take()).toBe("c");
  shelf.put("d");
  expect(shelf.drain()).toEqual(["d"]);
  await Bun.sleep(80);
  expect(expired).toEqual(["a"]);
});
