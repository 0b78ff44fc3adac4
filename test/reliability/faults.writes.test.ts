/** The handbook lifecycle (up, change, up, destroy) under server errors before and after the write was committed, and responses dropped after it. */
import { faultedLifecycleSuite } from "./faultSuite";

faultedLifecycleSuite(["20% 5xx", "responses dropped after commit", "5xx after commit"]);
