/**
 * The ResourceMonitor gRPC service the language host registers resources with. It decodes each request
 * and hands it to the current {@link Deployment}; it advertises only the `secrets` feature, so the SDK
 * sends plain values (no output values), resources as ids/URNs, and alias URNs it computed itself.
 */
import type * as grpcModule from "@grpc/grpc-js";
import type { IResourceMonitorServer } from "@pulumi/pulumi/proto/resource_grpc_pb";
import type { Deployment, Registration } from "./deployment";
import { emptypb, grpc, grpcError, resourcepb, resourceGrpc, structpb } from "./rpc";
import { type PropertyMap, toPropertyMap } from "./values";

/** What the program is told about the deployment (GetDeploymentInfo). */
export interface DeploymentInfo {
  project: string;
  stack: string;
  organization: string;
  config: Record<string, string>;
  secretKeys: string[];
  dryRun: boolean;
  parallel: number;
}

function errorOf(e: unknown): grpcModule.ServiceError {
  return grpcError(grpc.status.UNKNOWN, e instanceof Error ? e.message : String(e));
}

function toStruct(props: PropertyMap) {
  return structpb.Struct.fromJavaScript(props as Record<string, never>);
}

/** Serves ResourceMonitor for whichever deployment is current. */
export class FakeMonitor {
  /** The deployment receiving registrations; undefined between runs. */
  current: { deployment: Deployment; info: DeploymentInfo; onRegister?: (reg: Registration, urn: Promise<string>) => void } | undefined;

  /** Registers the ResourceMonitor service on a server. */
  addTo(server: grpcModule.Server): void {
    const unimplemented = (what: string) => (_call: unknown, cb: (err: grpcModule.ServiceError) => void) =>
      cb(grpcError(grpc.status.UNIMPLEMENTED, `${what} is not supported by the test engine`));
    const impl: IResourceMonitorServer = {
      getDeploymentInfo: (_call, cb) => {
        const info = this.current?.info;
        const resp = new resourcepb.DeploymentInfo();
        if (info) {
          resp.setProject(info.project);
          resp.setStack(info.stack);
          resp.setOrganization(info.organization);
          for (const [k, v] of Object.entries(info.config)) resp.getConfigMap().set(k, v);
          resp.setConfigsecretkeysList(info.secretKeys);
          resp.setDryrun(info.dryRun);
          resp.setParallel(info.parallel);
        }
        resp.setSupportedfeaturesList([resourcepb.ResourceMonitorFeature.RESOURCE_MONITOR_FEATURE_SECRETS]);
        cb(null, resp);
      },
      supportsFeature: (call, cb) => {
        const resp = new resourcepb.SupportsFeatureResponse();
        resp.setHassupport(call.request.getId() === "secrets");
        cb(null, resp);
      },
      invoke: (call, cb) => {
        const dep = this.current?.deployment;
        // The built-in read of a stack's outputs (what a stack reference reads), of the one stack this engine knows.
        if (call.request.getTok() === "pulumi:pulumi:readStackOutputs" && dep) {
          try {
            const args = (call.request.getArgs()?.toJavaScript() ?? {}) as Record<string, unknown>;
            const resp = new resourcepb.ResourceInvokeResponse();
            resp.setReturn(toStruct(dep.readStackOutputs(String(args["name"]))));
            return cb(null, resp);
          } catch (e) {
            return cb(errorOf(e));
          }
        }
        cb(grpcError(grpc.status.UNIMPLEMENTED, `function ${call.request.getTok()} is not supported by the test engine`));
      },
      call: unimplemented("Call"),
      existsResource: unimplemented("ExistsResource"),
      readResource: (call, cb) => {
        const dep = this.current?.deployment;
        if (!dep) return cb(grpcError(grpc.status.UNAVAILABLE, "no deployment is running"));
        const req = call.request;
        dep
          .read(req.getType(), req.getName(), req.getParent(), req.getId(), toPropertyMap(req.getProperties()?.toJavaScript() ?? {}), req.getDependenciesList())
          .then((r) => {
            const resp = new resourcepb.ReadResourceResponse();
            resp.setUrn(r.urn);
            resp.setProperties(toStruct(r.outputs));
            cb(null, resp);
          }, (e: unknown) => cb(errorOf(e)));
      },
      registerResource: (call, cb) => {
        const dep = this.current?.deployment;
        if (!dep) return cb(grpcError(grpc.status.UNAVAILABLE, "no deployment is running"));
        let reg: Registration;
        try {
          reg = decodeRegistration(call.request);
        } catch (e) {
          return cb(errorOf(e));
        }
        const registered = dep.register(reg);
        this.current?.onRegister?.(reg, registered.then((r) => r.urn, () => ""));
        registered.then((r) => {
          const resp = new resourcepb.RegisterResourceResponse();
          resp.setUrn(r.urn);
          resp.setId(r.id);
          resp.setObject(toStruct(r.outputs));
          cb(null, resp);
        }, (e: unknown) => cb(errorOf(e)));
      },
      registerResourceOutputs: (call, cb) => {
        const dep = this.current?.deployment;
        if (!dep) return cb(grpcError(grpc.status.UNAVAILABLE, "no deployment is running"));
        try {
          dep.registerOutputs(call.request.getUrn(), toPropertyMap(call.request.getOutputs()?.toJavaScript() ?? {}));
          cb(null, new emptypb.Empty());
        } catch (e) {
          cb(errorOf(e));
        }
      },
      registerStackTransform: unimplemented("RegisterStackTransform"),
      registerStackInvokeTransform: unimplemented("RegisterStackInvokeTransform"),
      registerResourceHook: unimplemented("RegisterResourceHook"),
      registerErrorHook: unimplemented("RegisterErrorHook"),
      registerPackage: unimplemented("RegisterPackage"),
      signalAndWaitForShutdown: (_call, cb) => {
        const dep = this.current?.deployment;
        if (!dep) return cb(null, new emptypb.Empty());
        dep.settle().then(() => cb(null, new emptypb.Empty()), (e: unknown) => cb(errorOf(e)));
      },
    };
    server.addService(resourceGrpc.ResourceMonitorService, impl);
  }
}

type RegisterResourceRequest = Parameters<IResourceMonitorServer["registerResource"]>[0]["request"];

function decodeRegistration(req: RegisterResourceRequest): Registration {
  const propertyDependencies: Record<string, string[]> = {};
  req.getPropertydependenciesMap().forEach((deps, key) => {
    propertyDependencies[key] = deps.getUrnsList();
  });
  return {
    type: req.getType(),
    name: req.getName(),
    parent: req.getParent(),
    custom: req.getCustom(),
    object: toPropertyMap(req.getObject()?.toJavaScript() ?? {}),
    dependencies: req.getDependenciesList(),
    propertyDependencies,
    protect: req.hasProtect() ? req.getProtect() : undefined,
    deleteBeforeReplace: req.getDeletebeforereplace(),
    ignoreChanges: req.getIgnorechangesList(),
    replaceOnChanges: req.getReplaceonchangesList(),
    additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
    aliasUrns: req.getAliasurnsList(),
    importId: req.getImportid(),
    retainOnDelete: req.hasRetainondelete() ? req.getRetainondelete() : undefined,
    provider: req.getProvider(),
    remote: req.getRemote(),
  };
}
