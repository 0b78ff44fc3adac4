/** The fields an entry of the stack file declares, derived from its kind's declaration. */
import type { Ref } from "./refs";

/**
 * The fields an entry of the stack file declares for a kind, as the stack file spells them: derived
 * from the kind's declaration (its fields' spelling, whether they are required, and whether `null`
 * clears them), so that no field of a kind is named here.
 */
export type Declared<K extends { fields: object }, I> = {
  [F in keyof K["fields"] & keyof I & string as IsRequired<K["fields"][F]> extends true ? Spelled<F, K["fields"][F]> : never]: DeclaredValue<K["fields"][F], Exclude<I[F], undefined>>;
} & {
  [F in keyof K["fields"] & keyof I & string as IsRequired<K["fields"][F]> extends true ? never : Spelled<F, K["fields"][F]>]?: DeclaredValue<K["fields"][F], Exclude<I[F], undefined>>;
};
type Spelled<F extends string, S> = S extends { stack: "context" } ? never : S extends { stack: { as: infer A extends string } } ? A : F;
type IsRequired<S> = S extends { required: true } ? true : S extends { stackRequired: true } ? true : false;
type DeclaredValue<S, V> =
  | (S extends { stack: { ref: string } }
      ? Ref
      : S extends { stack: { file: string } }
        ? V extends readonly unknown[]
          ? string[]
          : string
        : S extends { stack: "secretSources" }
          ? Record<string, StackSecretSource>
          : S extends { stack: "secretSource" }
            ? StackSecretSource
            : V)
  | (S extends { absent: "clear" } ? null : S extends { absent: { reset: null } } ? null : never);

/** Where a secret's value comes from when the program runs: a Pulumi config key or an environment variable. */
export type StackSecretSource = { config: string } | { env: string };
