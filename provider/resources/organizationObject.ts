/**
 * The CRUD of a kind whose objects are flat objects of one organisation, behind one area of the client
 * (`/orgs/{org}/<objects>`): create with the declared body fields, read and delete by ID, update with
 * the changed body fields only (no request when none changed), and adopt by the natural key from the
 * organisation's list. A kind with its own request shape writes that part itself.
 */
import type { ApiClient } from "../client";
import { type Created, type FieldSpec, type KindContext, adoptOne, declaredAmong, orGone, patchBody, patchedFields } from "./kind";

/** The client area of one kind of organisation object. */
export interface OrganizationArea<A, B> {
  list(organizationId: string, query?: Record<string, unknown>): Promise<A[]>;
  get(organizationId: string, id: string): Promise<A>;
  create(organizationId: string, body: B): Promise<A>;
  update(organizationId: string, id: string, body: B): Promise<A>;
  delete(organizationId: string, id: string): Promise<void>;
}

/** What a kind of organisation object tells the shared CRUD. */
export interface OrganizationObjectSpec<I extends { organizationId: string }, O, A extends { id: string }, B> {
  /** The kind's name, for adopt's error. */
  kind: string;
  area(client: ApiClient): OrganizationArea<A, B>;
  toOutputs(organizationId: string, live: A): O;
  /** The kind's declaration: the fields marked `patched` are the API's body as they are (the natural key among them). */
  fields: { [K in keyof I & string]: FieldSpec };
  /**
   * The natural key, unique in the organisation: the input adopt looks up by (and, when the API refuses
   * a duplicate, why); the kind's `naturalKey` is this one. Then how adopt's error names duplicates
   * ("SAML providers", "are labelled").
   */
  naturalKey: { field: keyof I & keyof A & string; enforced?: string };
  objects: string;
  verb: string;
  /** The list query adopt narrows the organisation's list with, where the API filters by the key (one request, not a walk of every object). */
  query?(inputs: I): Record<string, unknown>;
  /** The read of one object when other kinds read it too (a shared read, see lists.ts); default: the area's GET. */
  get?(client: ApiClient, organizationId: string, id: string): Promise<A>;
}

/** The natural key, create, read, update, delete, adopt and `outputsOf` of an organisation object. */
export function organizationObject<I extends { organizationId: string }, O, A extends { id: string }, B>(spec: OrganizationObjectSpec<I, O, A, B>) {
  const { area, toOutputs } = spec;
  const key = spec.naturalKey.field;
  return {
    naturalKey: { ...spec.naturalKey, scope: "organization" as const },
    async create(ctx: KindContext, inputs: I): Promise<Created<O>> {
      const live = await area(ctx.client).create(inputs.organizationId, declaredAmong<B>(inputs, patchedFields(spec.fields)));
      return { id: live.id, outs: toOutputs(inputs.organizationId, live) };
    },
    async read(ctx: KindContext, id: string, state: O & { organizationId: string }): Promise<O | undefined> {
      const live = await orGone(spec.get ? spec.get(ctx.client, state.organizationId, id) : area(ctx.client).get(state.organizationId, id));
      return live ? toOutputs(state.organizationId, live) : undefined;
    },
    async update(ctx: KindContext, id: string, olds: O & { organizationId: string }, news: I, changed: string[]): Promise<O> {
      const body = patchBody<B>(spec.fields, news, changed);
      if (Object.keys(body as object).length === 0) return olds;
      return toOutputs(olds.organizationId, await area(ctx.client).update(olds.organizationId, id, body));
    },
    async delete(ctx: KindContext, id: string, olds: O & { organizationId: string }): Promise<void> {
      await area(ctx.client).delete(olds.organizationId, id);
    },
    adopt(ctx: KindContext, inputs: I): Promise<Created<O> | undefined> {
      const value = inputs[key];
      const what = `${spec.objects} of organization ${inputs.organizationId} ${spec.verb} ${JSON.stringify(value)}`;
      return adoptOne(spec.kind, what, area(ctx.client).list(inputs.organizationId, spec.query?.(inputs)), (a) => (a[key] as unknown) === value, (a) => toOutputs(inputs.organizationId, a));
    },
    outputsOf: (live: A, where: { organizationId: string }): O => toOutputs(where.organizationId, live),
  };
}
