import { describe, expect, test } from "vitest";
import { testImportFindings } from "../lib/lint-tests.js";

const helperHome = "a helper the tests of two packages share lives in test-support/";

describe("a package's files never import from another package's test folder", () => {
  test("a static import, a re-export and a dynamic import are found, at their lines", () => {
    const text = [
      'import { useAgentDir } from "../../../roundtable-client/test/support/brokers.js";',
      'export { until } from "../../../roundtable-client/test/support/tmp.js";',
      "export async function load(): Promise<unknown> {",
      '  return import("../../../roundtable-broker/test/helpers.js");',
      "}",
    ].join("\n");
    expect(testImportFindings({ file: "packages/roundtable-cli/test/support/cli-io.ts", text })).toEqual([
      {
        file: "packages/roundtable-cli/test/support/cli-io.ts",
        line: 1,
        message: `imports "../../../roundtable-client/test/support/brokers.js" from the tests of packages/roundtable-client; ${helperHome}`,
      },
      {
        file: "packages/roundtable-cli/test/support/cli-io.ts",
        line: 2,
        message: `imports "../../../roundtable-client/test/support/tmp.js" from the tests of packages/roundtable-client; ${helperHome}`,
      },
      {
        file: "packages/roundtable-cli/test/support/cli-io.ts",
        line: 4,
        message: `imports "../../../roundtable-broker/test/helpers.js" from the tests of packages/roundtable-broker; ${helperHome}`,
      },
    ]);
  });

  test("the package's own test helpers, test-support/, other packages by name and their demos are left alone", () => {
    const text = [
      'import { RawPeer } from "./helpers.js";',
      'import { hello } from "../helpers.js";',
      'import { until } from "../../../../test-support/poll.js";',
      'import { startBroker } from "@orphus/roundtable-broker";',
      'import { DEMO_SCRIPT } from "../../roundtable-cli/demo/script.js";',
      '// import { x } from "../../roundtable-client/test/support/brokers.js";',
      'const text = "../../roundtable-client/test/support/brokers.js";',
    ].join("\n");
    expect(testImportFindings({ file: "packages/roundtable-broker/test/redis/reset.test.ts", text })).toEqual([]);
  });
});

describe("test-support reaches packages by name", () => {
  test("an import from a package's src/ or test/ folder is found, with what to do instead", () => {
    const text = [
      'import type { RoomStore } from "../packages/rooms/src/index.js";',
      'import { brandErrorClass } from "../../packages/internal/src/index.js";',
      'import { staleSocket } from "../packages/roundtable-client/test/support/sockets.js";',
      'import { binBuild } from "../packages/roundtable-broker/tsup.config.js";',
      'import { until } from "./poll.js";',
      'import { RoomsError } from "@orphus/rooms";',
    ].join("\n");
    expect(
      testImportFindings({ file: "test-support/contract.ts", text }).map((f) => `${f.line}: ${f.message}`),
    ).toEqual([
      '1: imports "../packages/rooms/src/index.js" from packages/rooms/src/; import @orphus/rooms by name',
      '3: imports "../packages/roundtable-client/test/support/sockets.js" from packages/roundtable-client/test/; move what it needs to test-support/',
    ]);
    // From test-support/, "../../packages/internal" leaves the repository: nothing of ours.
    expect(
      testImportFindings({
        file: "test-support/reliability/x.ts",
        text: 'import { x } from "../../packages/internal/src/index.js";',
      }),
    ).toEqual([
      {
        file: "test-support/reliability/x.ts",
        line: 1,
        message:
          'imports "../../packages/internal/src/index.js" from packages/internal/src/; import @orphus/internal by name',
      },
    ]);
  });

  test("files outside packages/ and test-support/ are not this rule's", () => {
    const text = 'import { x } from "../packages/roundtable-client/test/support/brokers.js";';
    expect(testImportFindings({ file: "scripts/lint.ts", text })).toEqual([]);
  });
});
