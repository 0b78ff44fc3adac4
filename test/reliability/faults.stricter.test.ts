/** The handbook lifecycle (up, change, up, destroy) under a stricter API: a burst limiter in front of an hourly quota, lists that lag behind writes, answers held past the client's timeout after commit. */
import { faultedLifecycleSuite } from "./faultSuite";

faultedLifecycleSuite([
  "burst limiter in front of an hourly quota",
  "lists lagging 1 s behind writes, responses dropped after commit",
  "answers held past the client timeout after commit, lists lagging",
]);
