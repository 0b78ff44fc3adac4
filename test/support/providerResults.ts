/**
 * Results of a dynamic provider's steps, called in-process by a test. Pulumi types a create's and an
 * update's `outs` and a read's `props` as optional; every kind here returns them (a read of an object
 * that is gone answers an empty id instead). A test that goes on to use them says so once, here, and
 * fails with a message rather than a TypeError when a provider returns none.
 */

/** A create's or update's result whose outputs are there. */
export type WithOuts<R extends { readonly outs?: unknown }> = R & { readonly outs: NonNullable<R["outs"]> };

/** A read's result whose outputs are there. */
export type WithProps<R extends { readonly props?: unknown }> = R & { readonly props: NonNullable<R["props"]> };

/** The result of a dynamic provider's create or update, failing when it carries no outputs. */
export async function withOuts<R extends { readonly outs?: unknown }>(result: Promise<R>): Promise<WithOuts<R>> {
  const settled = await result;
  if (settled.outs === undefined || settled.outs === null) {
    throw new Error("the dynamic provider's create or update returned no outputs (outs)");
  }
  return settled as WithOuts<R>;
}

/** The result of a dynamic provider's read, failing when it carries no outputs (the object was not found). */
export async function withProps<R extends { readonly id?: string; readonly props?: unknown }>(result: Promise<R>): Promise<WithProps<R>> {
  const settled = await result;
  if (settled.props === undefined || settled.props === null) {
    throw new Error(`the dynamic provider's read returned no outputs (props) for id "${settled.id ?? ""}"`);
  }
  return settled as WithProps<R>;
}
