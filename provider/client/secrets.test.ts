import { describe, expect, it } from "vitest";
import { SecretValues } from "./secrets";

// The run's secret values alone; secretEcho.test.ts shows them redacted from errors through the real plugin.

describe("SecretValues", () => {
  it("redacts each value as it is, JSON-escaped and URL-encoded, and any bearer credential", () => {
    const s = new SecretValues("tk_0a1b");
    s.add('pa"ss\\word', "key with space/slash");
    const text = `token tk_0a1b; echo {"p":"pa\\"ss\\\\word"} ?k=key%20with%20space%2Fslash; raw key with space/slash; Bearer abc.def`;
    expect(s.redact(text)).toBe('token [redacted]; echo {"p":"[redacted]"} ?k=[redacted]; raw [redacted]; Bearer [redacted]');
  });

  it("registers a URL's query values (a share link's token), and the longest value first", () => {
    const s = new SecretValues();
    s.add("https://docs.example.com/?token=sl_9f8e7d6c");
    s.add("sl_9f8e7d6c-suffix");
    expect(s.redact("link https://docs.example.com/?token=sl_9f8e7d6c, token sl_9f8e7d6c, sl_9f8e7d6c-suffix")).toBe("link [redacted], token [redacted], [redacted]");
  });

  it("ignores values too short to tell from words, and what is not a string", () => {
    const s = new SecretValues();
    s.add("abc", 1234, null, undefined, { v: "secret-in-object" });
    expect(s.size).toBe(0);
    expect(s.redact("abc 1234")).toBe("abc 1234");
  });
});
