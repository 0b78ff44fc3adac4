/** Runs killed at a create of a section, section group or site space of the handbook's `up`, then up again (see crashSuite.ts). */
import { STRUCTURE_KINDS, crashRows, crashSuite } from "./crashSuite";

crashSuite(crashRows((kind) => STRUCTURE_KINDS.includes(kind)));
