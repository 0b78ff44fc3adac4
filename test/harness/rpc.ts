/**
 * gRPC and protobuf modules loaded through `@pulumi/pulumi`'s own resolution, so the message classes are
 * the very ones the SDK and the plugin use (two copies of google-protobuf do not recognise each other's
 * messages).
 */
import { createRequire } from "node:module";
import type * as grpcModule from "@grpc/grpc-js";
import type * as structModule from "google-protobuf/google/protobuf/struct_pb";
import type * as emptyModule from "google-protobuf/google/protobuf/empty_pb";
import type * as providerGrpcModule from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as providerModule from "@pulumi/pulumi/proto/provider_pb";
import type * as pluginModule from "@pulumi/pulumi/proto/plugin_pb";
import type * as resourceGrpcModule from "@pulumi/pulumi/proto/resource_grpc_pb";
import type * as resourceModule from "@pulumi/pulumi/proto/resource_pb";
import type * as engineGrpcModule from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as engineModule from "@pulumi/pulumi/proto/engine_pb";
import type * as statusModule from "@pulumi/pulumi/proto/status_pb";

/** Absolute path of the installed `@pulumi/pulumi` package. */
export const SDK_DIR = require.resolve("@pulumi/pulumi").replace(/[\\/]index\.js$/, "");

const sdkRequire = createRequire(require.resolve("@pulumi/pulumi"));

export const grpc = sdkRequire("@grpc/grpc-js") as typeof grpcModule;
export const structpb = sdkRequire("google-protobuf/google/protobuf/struct_pb") as typeof structModule;
export const emptypb = sdkRequire("google-protobuf/google/protobuf/empty_pb") as typeof emptyModule;
export const providerGrpc = sdkRequire("./proto/provider_grpc_pb") as typeof providerGrpcModule;
export const providerpb = sdkRequire("./proto/provider_pb") as typeof providerModule;
export const pluginpb = sdkRequire("./proto/plugin_pb") as typeof pluginModule;
export const resourceGrpc = sdkRequire("./proto/resource_grpc_pb") as typeof resourceGrpcModule;
export const resourcepb = sdkRequire("./proto/resource_pb") as typeof resourceModule;
export const engineGrpc = sdkRequire("./proto/engine_grpc_pb") as typeof engineGrpcModule;
export const enginepb = sdkRequire("./proto/engine_pb") as typeof engineModule;
export const statuspb = sdkRequire("./proto/status_pb") as typeof statusModule;

/** Channel options matching the engine's generous message limits. */
export const channelOptions: grpcModule.ChannelOptions = {
  "grpc.max_receive_message_length": 1 << 30,
  "grpc.max_send_message_length": 1 << 30,
};

/** Binds a server on 127.0.0.1 with an ephemeral port and returns `127.0.0.1:<port>`. */
export function bindServer(server: grpcModule.Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
      if (err) reject(err);
      else resolve(`127.0.0.1:${port}`);
    });
  });
}

/** Shuts a server down, forcing it after a short grace period. */
export function shutdownServer(server: grpcModule.Server): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, 1000);
    server.tryShutdown(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** A gRPC error with the given status code, as a service handler returns it. */
export function grpcError(code: grpcModule.status, message: string): grpcModule.ServiceError {
  const err = new Error(message) as grpcModule.ServiceError;
  err.code = code;
  err.details = message;
  err.metadata = new grpc.Metadata();
  return err;
}
