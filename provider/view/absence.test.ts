/** The absence rules the view restates are the kinds' own (provider/resources: `FieldSpec.absent`). */
import { describe, expect, it } from "vitest";
import { kinds } from "../resources/kinds";
import { ABSENCE } from "./absence";

describe("absence rules of the view", () => {
  for (const [kindName, fields] of Object.entries(ABSENCE)) {
    it(`${kindName}: as the kind declares them`, () => {
      const kind = kinds.find((k) => k.name === kindName);
      expect(kind, kindName).toBeDefined();
      const declared = kind!.fields as Record<string, { absent?: unknown }>;
      for (const [field, rule] of Object.entries(fields)) {
        expect(declared[field]?.absent, `${kindName}.${field}`).toEqual(rule);
      }
    });
  }
});
