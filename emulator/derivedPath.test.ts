import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { derivePath } from "../provider/rules";
import { slugify } from "./slug";

// The emulator derives a path from a title with its own code, written from the contract; the provider
// predicts the same path with its own (stack checks, tree, diff). Each is written on its own so that a
// misreading of the rule on one side shows here as a disagreement instead of passing everywhere.
describe("the path derived from a title", () => {
  it("follows the contract: lowercase, other characters to -", () => {
    expect(slugify("Getting Started!")).toBe("getting-started");
    expect(slugify("  API  v2 ")).toBe("api-v2");
    expect(slugify("Café déjà vu")).toBe("cafe-deja-vu");
    expect(slugify("🚀", "section")).toBe("section");
    expect(slugify("a".repeat(89) + " b")).toBe("a".repeat(89));
  });

  it("is the path the provider predicts, for any title", () => {
    const title = fc.oneof(fc.string({ maxLength: 120 }), fc.string({ unit: "grapheme", maxLength: 120 }), fc.constantFrom("Ünïcödé Tïtle", "x-".repeat(60), "--a--"));
    fc.assert(fc.property(title, (t) => {
      expect(slugify(t, "section")).toBe(derivePath(t, "section"));
    }), { numRuns: 2000 });
  });
});
