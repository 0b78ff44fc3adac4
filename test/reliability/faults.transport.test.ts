/** The handbook lifecycle (up, change, up, destroy) under 429 storms, connection resets, and latency beyond a shortened client timeout. */
import { faultedLifecycleSuite } from "./faultSuite";

faultedLifecycleSuite(["429 storms", "connection resets", "latency beyond the client timeout"]);
