import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { kinds } from "../../dist/provider/resources/kinds";
import { absenceText, type FieldSpec } from "../../dist/provider/resources/kind";
import { generatedSchemas } from "../../dist/provider/stack/stackSchema";

const schemasDir = path.resolve(__dirname, "../../schemas");

describe("the one declaration of each kind", () => {
  it("gives every optional input of every kind a rule for its absence", () => {
    const missing: string[] = [];
    for (const kind of kinds) {
      for (const [name, spec] of Object.entries(kind.fields) as [string, FieldSpec][]) {
        if (!spec.required && spec.absent === undefined) missing.push(`${kind.name}.${name}`);
        if (spec.required && spec.absent !== undefined) missing.push(`${kind.name}.${name} is required and has an absence rule`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("states each rule in the field's description", () => {
    for (const kind of kinds) {
      for (const spec of Object.values(kind.fields) as FieldSpec[]) expect(absenceText(spec)).toMatch(/^(Required|Omitted)/);
    }
  });

  it("is what the committed schemas were generated from (run `npm run schemas` after changing a declaration)", () => {
    const stale: string[] = [];
    for (const [file, text] of generatedSchemas()) {
      const target = path.join(schemasDir, file);
      if (!fs.existsSync(target) || fs.readFileSync(target, "utf8") !== text) stale.push(file);
    }
    const committed = fs.readdirSync(path.join(schemasDir, "kinds")).map((f) => `kinds/${f}`);
    const generated = [...generatedSchemas().keys()];
    expect(stale).toEqual([]);
    expect(committed.filter((f) => !generated.includes(f))).toEqual([]);
  });
});
