/** `npm run schemas`: writes schemas/stack.schema.json, schemas/kinds/*.json and docs/reference.md from the kinds' declarations. */
import * as path from "node:path";
import { writeSchemas } from "../provider/stack/stackSchema";

const dir = path.resolve(__dirname, "../..");
const written = writeSchemas(dir);
process.stdout.write(written.length === 0 ? "schemas: up to date\n" : `schemas: wrote ${written.join(", ")}\n`);
