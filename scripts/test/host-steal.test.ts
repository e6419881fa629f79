import { describe, expect, test } from "vitest";
import { cpuTicks, stealLine } from "../lib/host-steal.js";

// Lines as a 2-CPU guest's /proc/stat gives them.
const STAT_BEFORE = [
  "cpu  3556764 0 557268 1498687 8182 0 6892 26116 0 0",
  "cpu0 1768809 0 278169 762740 1680 0 1892 13458 0 0",
  "cpu1 1787955 0 279098 735947 6501 0 4999 12658 0 0",
  "intr 1 2 3",
].join("\n");
const STAT_AFTER = [
  "cpu  3557764 0 557468 1498987 8182 0 6892 26416 0 0",
  "cpu0 1769609 0 278369 762740 1680 0 1892 13758 0 0",
  "cpu1 1787955 0 279098 736247 6501 0 4999 12658 0 0",
].join("\n");

describe("host steal", () => {
  test("one CPU's ticks, or all CPUs' together", () => {
    expect(cpuTicks(STAT_BEFORE, 0)).toEqual({ total: 2826748, steal: 13458 });
    expect(cpuTicks(STAT_BEFORE, undefined)).toEqual({ total: 5653909, steal: 26116 });
    expect(cpuTicks(STAT_BEFORE, 7)).toBeUndefined();
    expect(cpuTicks("cpu0 1 2 3 4", 0)).toBeUndefined();
  });

  test("the share of the CPU's time the host took between two readings", () => {
    // CPU 0: 800 user + 200 system + 300 steal ticks passed; steal is 300 of 1300.
    expect(stealLine(cpuTicks(STAT_BEFORE, 0), cpuTicks(STAT_AFTER, 0), 0)).toBe(
      "host steal on CPU 0: 23.1% of its time during this file (the host's other guests)",
    );
    expect(stealLine(cpuTicks(STAT_BEFORE, 1), cpuTicks(STAT_AFTER, 1), 1)).toBe(
      "host steal on CPU 1: 0.0% of its time during this file (the host's other guests)",
    );
    expect(stealLine(undefined, undefined, undefined)).toBe("host steal on all CPUs: not known here (no /proc/stat)");
    expect(stealLine(cpuTicks(STAT_BEFORE, 0), cpuTicks(STAT_BEFORE, 0), 0)).toBe(
      "host steal on CPU 0: no time passed",
    );
  });
});
