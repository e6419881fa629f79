import { inspect } from "node:util";
import { describe, expect, test } from "vitest";
import {
  createSettingsReader,
  createTokenMasker,
  dockerTokenArgs,
  GitHubTokenSettingInvalidError,
  NO_TOKENS,
  resolveGitHubToken,
  settingVariableName,
  tokenVariableOf,
  UnmaskableTokenError,
  type Environment,
} from "@orphus/orkeon-crew";
import { thrown } from "./support/thrown.js";

const resolve = (json: unknown, env: Environment) =>
  resolveGitHubToken({ settings: createSettingsReader({ json, env }), env });

describe("the github tool's token, in the runtime's order", () => {
  test("Orkeon:Tools:GitHub:Token first", () => {
    const { token } = resolve(
      { Orkeon: { Tools: { GitHub: { Token: "from-setting" } } } },
      { GITHUB_TOKEN: "from-github-token", GH_TOKEN: "from-gh-token" },
    );
    expect(token?.reveal()).toBe("from-setting");
    expect(token?.source).toEqual({ kind: "setting", key: "Orkeon:Tools:GitHub:Token" });
  });

  test("else the variable Orkeon:Tools:GitHub:TokenVariable names", () => {
    const { token, variable } = resolve(
      { Orkeon: { Tools: { GitHub: { TokenVariable: "MY_TOKEN" } } } },
      { MY_TOKEN: "mine", GITHUB_TOKEN: "gh", GH_TOKEN: "g" },
    );
    expect(variable).toBe("MY_TOKEN");
    expect(token?.reveal()).toBe("mine");
    expect(token?.source).toEqual({ kind: "variable", name: "MY_TOKEN" });
  });

  test("that variable is GITHUB_TOKEN by default", () => {
    const { token } = resolve({}, { GITHUB_TOKEN: "gh", GH_TOKEN: "g" });
    expect(token?.source).toEqual({ kind: "variable", name: "GITHUB_TOKEN" });
  });

  test("else GH_TOKEN", () => {
    const named = resolve(
      { orkeon: { tools: { github: { tokenvariable: "MY_TOKEN" } } } },
      { GITHUB_TOKEN: "x", GH_TOKEN: "g" },
    );
    expect(named.token?.source).toEqual({ kind: "variable", name: "GH_TOKEN" });
    expect(resolve(undefined, { GH_TOKEN: "g" }).token?.reveal()).toBe("g");
  });

  test("a blank value counts as unset; no source, no token", () => {
    expect(
      resolve({ Orkeon: { Tools: { GitHub: { Token: " " } } } }, { GITHUB_TOKEN: "", GH_TOKEN: "g" }).token?.reveal(),
    ).toBe("g");
    expect(resolve(undefined, {}).token).toBeUndefined();
  });

  test("the variable form of a setting overrides the settings file", () => {
    const settings = createSettingsReader({
      json: { Orkeon: { Tools: { GitHub: { TokenVariable: "FROM_FILE" } } } },
      env: { Orkeon__Tools__GitHub__TokenVariable: "FROM_ENV" },
    });
    expect(tokenVariableOf(settings)).toBe("FROM_ENV");
    expect(settingVariableName("Orkeon:Tools:GitHub:TokenVariable")).toBe("Orkeon__Tools__GitHub__TokenVariable");
  });

  test("a TokenVariable that is not a variable name is refused", () => {
    const error = thrown(() => resolve({ Orkeon: { Tools: { GitHub: { TokenVariable: "MY TOKEN" } } } }, {}));
    expect(error).toBeInstanceOf(GitHubTokenSettingInvalidError);
    expect(error).toMatchObject({
      code: "ERR_GITHUB_TOKEN_SETTING_INVALID",
      message:
        "Orkeon:Tools:GitHub:TokenVariable must name an environment variable (letters, digits and _, not starting with a digit), got a value of 8 chars holding another character",
    });
  });

  // Finding 2 of issue 16: a token pasted into the variable-name setting was echoed in full by the error.
  test.each([
    [
      "a classic 40-hex token starting with a digit",
      "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c",
      "that looks like a GitHub token",
    ],
    [
      "a classic 40-hex token starting with a letter",
      "af1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c",
      "that looks like a GitHub token",
    ],
    ["a personal access token", "ghp_R2d2C3poR2d2C3poR2d2C3poR2d2C3poR2d2", "that looks like a GitHub token"],
    ["a fine-grained token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "that looks like a GitHub token"],
  ])("a token pasted into the variable-name setting is refused without quoting it: %s", (_, pasted, why) => {
    for (const attempt of [
      () => resolve({}, { Orkeon__Tools__GitHub__TokenVariable: pasted }),
      () => resolve({ Orkeon: { Tools: { GitHub: { TokenVariable: pasted } } } }, {}),
      () => dockerTokenArgs({ Orkeon__Tools__GitHub__TokenVariable: pasted }),
    ]) {
      const error = thrown(attempt);
      expect(error).toBeInstanceOf(GitHubTokenSettingInvalidError);
      expect(error?.message).toContain(`got a value of ${pasted.length} chars ${why}`);
      for (let i = 0; i + 8 <= pasted.length; i++) expect(error?.message).not.toContain(pasted.slice(i, i + 8));
    }
  });

  test("a masked placeholder copied back into a setting is refused, without quoting it", () => {
    expect(() => resolve({ Orkeon: { Tools: { GitHub: { Token: "***" } } } }, {})).toThrow(
      new UnmaskableTokenError("Orkeon:Tools:GitHub:Token"),
    );
    expect(() => resolve({}, { GH_TOKEN: "****" })).toThrow(
      "The token from GH_TOKEN is made of asterisks alone: expected a token, got a masked placeholder",
    );
  });
});

describe("masking", () => {
  test("the resolution's masker hides every value any source holds, the unused ones too", () => {
    const { masker } = resolve(
      { Orkeon: { Tools: { GitHub: { Token: "tok-setting", TokenVariable: "MINE" } } } },
      { MINE: "tok-mine", GITHUB_TOKEN: "tok-default", GH_TOKEN: "tok-gh" },
    );
    expect(masker.mask("a tok-setting b tok-mine c tok-default d tok-gh")).toBe("a *** b *** c *** d ***");
  });

  test("the token prints as *** wherever it lands", () => {
    const { token } = resolve(undefined, { GITHUB_TOKEN: "ghp_live" });
    expect(String(token)).toBe("***");
    expect(`${token}`).toBe("***");
    expect(JSON.stringify({ token })).toBe('{"token":"***"}');
    expect(inspect({ token })).not.toContain("ghp_live");
    expect(token?.describe()).toBe("GitHub token from the variable GITHUB_TOKEN (***)");
  });

  test("a token holding another is masked whole; a mask never joins a new occurrence", () => {
    expect(createTokenMasker(["ab", "abcd"]).mask("xabcdx ab")).toBe("x***x ***");
    expect(createTokenMasker(["a*"]).mask("aa*")).toBe("*****");
    expect(NO_TOKENS.mask("nothing to hide")).toBe("nothing to hide");
    expect(createTokenMasker(["", "x"]).size).toBe(1);
    expect(() => createTokenMasker(["**"])).toThrow(UnmaskableTokenError);
  });

  test("overlapping occurrences of a periodic token are hidden whole, not just the leftmost", () => {
    const periodic = "abababababab";
    expect(createTokenMasker([periodic]).mask(`ab${periodic}ababab`)).toBe("***");
    expect(createTokenMasker(["aaaaaaaaa"]).mask("x" + "a".repeat(17) + "x")).toBe("x***x");
  });
});

describe("the Docker launch arguments", () => {
  test("hand GITHUB_TOKEN, GH_TOKEN and the named variable, each only when set, plus that setting itself", () => {
    expect(
      dockerTokenArgs({
        GITHUB_TOKEN: "a",
        GH_TOKEN: "b",
        MY_TOKEN: "c",
        Orkeon__Tools__GitHub__TokenVariable: "MY_TOKEN",
        OTHER: "d",
      }),
    ).toEqual(["-e", "GITHUB_TOKEN", "-e", "GH_TOKEN", "-e", "MY_TOKEN", "-e", "Orkeon__Tools__GitHub__TokenVariable"]);
    expect(dockerTokenArgs({ GH_TOKEN: "b", GITHUB_TOKEN: "" })).toEqual(["-e", "GH_TOKEN"]);
    expect(dockerTokenArgs({})).toEqual([]);
  });

  test("the setting is handed even when the variable it names is unset, and a name is never repeated", () => {
    expect(dockerTokenArgs({ Orkeon__Tools__GitHub__TokenVariable: "MY_TOKEN" })).toEqual([
      "-e",
      "Orkeon__Tools__GitHub__TokenVariable",
    ]);
    expect(dockerTokenArgs({ GH_TOKEN: "b", Orkeon__Tools__GitHub__TokenVariable: "GH_TOKEN" })).toEqual([
      "-e",
      "GH_TOKEN",
      "-e",
      "Orkeon__Tools__GitHub__TokenVariable",
    ]);
  });

  test("refuses a setting that is not a variable name", () => {
    expect(() => dockerTokenArgs({ Orkeon__Tools__GitHub__TokenVariable: "A=B" })).toThrow(
      GitHubTokenSettingInvalidError,
    );
  });
});
