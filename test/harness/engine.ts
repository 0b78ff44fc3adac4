/**
 * The Engine gRPC service the language host and the provider plugin talk to for logging and the root
 * stack resource. Log lines are collected so a run can report them.
 */
import type * as grpcModule from "@grpc/grpc-js";
import type { IEngineServer } from "@pulumi/pulumi/proto/engine_grpc_pb";
import { emptypb, enginepb, engineGrpc } from "./rpc";

/** One diagnostic sent to the engine (by the program or the plugin); debug lines are not kept. */
export interface LogEntry {
  severity: "debug" | "info" | "warning" | "error";
  message: string;
  urn: string;
}

const SEVERITIES: LogEntry["severity"][] = ["debug", "info", "warning", "error"];

/** Collects diagnostics and keeps the root resource URN; add it to a gRPC server with {@link addTo}. */
export class FakeEngine {
  /** Every diagnostic received, oldest first. */
  readonly logs: LogEntry[] = [];
  private rootUrn = "";

  /** Registers the Engine service on a server. */
  addTo(server: grpcModule.Server): void {
    const impl: IEngineServer = {
      log: (call, cb) => {
        const req = call.request;
        // Debug lines (the SDK sends many: closure serialisation, every RPC) are dropped, as the CLI hides them.
        if (req.getSeverity() !== enginepb.LogSeverity.DEBUG) this.logs.push({
          severity: SEVERITIES[req.getSeverity()] ?? "info",
          message: req.getMessage(),
          urn: req.getUrn(),
        });
        cb(null, new emptypb.Empty());
      },
      getRootResource: (_call, cb) => {
        const resp = new enginepb.GetRootResourceResponse();
        resp.setUrn(this.rootUrn);
        cb(null, resp);
      },
      setRootResource: (call, cb) => {
        this.rootUrn = call.request.getUrn();
        cb(null, new enginepb.SetRootResourceResponse());
      },
      startDebugging: (_call, cb) => cb(null, new emptypb.Empty()),
      requirePulumiVersion: (_call, cb) => cb(null, new enginepb.RequirePulumiVersionResponse()),
    };
    server.addService(engineGrpc.EngineService, impl);
  }

  /** Diagnostics at `error` severity, as text. */
  errors(): string[] {
    return this.logs.filter((l) => l.severity === "error").map((l) => l.message);
  }
}
