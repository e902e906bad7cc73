/**
 * The few valibot combinators the selector schema is built from. Every one
 * dispatches on the input's shape before validating it, so a mistake gets a
 * message about what the user wrote ("expected a list, got an object")
 * rather than valibot's union summary, and an unknown key gets a "did you
 * mean" naming its nearest valid spelling.
 *
 * @module
 */
import * as v from "valibot";
import { describeInput, unknownName } from "./_text.ts";
import { suggest } from "../lib/suggest.ts";
import type { Scalar } from "./types.ts";

/** A valibot schema from unknown input to `T`. */
export type Schema<T> = v.GenericSchema<unknown, T>;

/** True for `{...}`: not null, not a list. */
export function isPlainObject(input: unknown): input is Record<string, unknown> {
  return typeof input === "object" && input !== null && !Array.isArray(input) &&
    !(input instanceof Uint8Array);
}

/** A schema that always fails with `message`. */
export function fail(message: string): Schema<never> {
  return v.custom<never>(() => false, message);
}

/**
 * Picks the schema for an input by looking at it first. `pick` returns a
 * schema, or a message for input of the wrong shape.
 */
export function dispatch<T>(pick: (input: unknown) => Schema<T> | string): Schema<T> {
  return v.lazy((input) => {
    const picked = pick(input);
    return typeof picked === "string" ? fail(picked) : picked;
  });
}

/** `expected <what>, got <input>`. */
export function expected(what: string, input: unknown): string {
  return `expected ${what}, got ${describeInput(input)}`;
}

/** How {@link keyed} treats keys that are not in `entries`. */
export interface KeyedOptions<R> {
  /** What the object is, for "expected ..." (e.g. "a tables scope object"). */
  readonly what: string;
  /** The word for an unknown key: "key" (default) or "operator". */
  readonly keyWord?: string;
  /** Other keys not starting with `$` are validated by this schema (column names). */
  readonly rest?: Schema<R>;
  /** Refuse `{}` with this message. */
  readonly emptyMessage?: string;
  /** Other names of keys (`$ne` -> `$not-eq`): accepted, and read as the key they name. */
  readonly aliases?: Readonly<Record<string, string>>;
  /** What to write instead of a known mistake, by unknown key (e.g. MongoDB's `$exists`). */
  readonly hints?: Readonly<Record<string, string>>;
}

/** A key written without care for case, `-` or `_` (`$NotIn`, `$not_in`): `$notin`. */
function loose(key: string): string {
  return key.toLowerCase().replace(/[-_\s]/g, "");
}

/**
 * Of a name and an alias both near `key`, the one sharing the longer start
 * with it: "$neq" is MongoDB's "$ne" (so "$not-eq"), never "$eq", while
 * "$inn" is "$in", not "$nin".
 */
function nearer(key: string, name?: string, alias?: string): string | undefined {
  if (name === undefined || alias === undefined) return name ?? alias;
  const common = (w: string) => {
    let i = 0;
    while (i < w.length && w[i] === key[i]) i++;
    return i;
  };
  return common(alias) > common(name) ? alias : name;
}

/**
 * "unknown operator ..." for a key not in `names`: a hint for a known
 * mistake, else the name it loosely equals, else the nearest name or alias
 * (an alias suggested as the name it stands for), else the list.
 */
function unknownKey(key: string, names: readonly string[], options: KeyedOptions<unknown>): string {
  const kind = options.keyWord ?? "key";
  const hint = options.hints?.[key];
  if (hint !== undefined) return `unknown ${kind} ${JSON.stringify(key)}; ${hint}`;
  const aliases = options.aliases ?? {};
  const near = names.find((n) => loose(n) === loose(key)) ?? nearer(
    key,
    suggest(key, names),
    suggest(key, Object.keys(aliases)),
  );
  if (near === undefined) return unknownName(kind, key, names);
  return `unknown ${kind} ${JSON.stringify(key)}; did you mean "${aliases[near] ?? near}"?`;
}

/**
 * A strict object: known keys validated by `entries` (all optional), an
 * unknown key reported at the object's path with the nearest valid name.
 */
export function keyed<T, R = never>(
  entries: v.ObjectEntries,
  options: KeyedOptions<R>,
): Schema<T> {
  const names = Object.keys(entries);
  const strict = options.rest === undefined
    ? v.strictObject(entries)
    : v.objectWithRest(entries, options.rest);
  const aliases = options.aliases ?? {};
  return dispatch((input) => {
    if (!isPlainObject(input)) return expected(options.what, input);
    const keys = Object.keys(input);
    if (keys.length === 0 && options.emptyMessage !== undefined) return options.emptyMessage;
    for (const key of keys) {
      if (names.includes(key)) continue;
      if (options.rest !== undefined && !key.startsWith("$")) continue;
      const name = Object.hasOwn(aliases, key) ? aliases[key]! : undefined;
      if (name === undefined) return unknownKey(key, names, options as KeyedOptions<unknown>);
      if (keys.includes(name)) {
        return `"${key}" and "${name}" are the same ${options.keyWord ?? "key"}; give one of them`;
      }
    }
    const aliased = keys.filter((k) => Object.hasOwn(aliases, k));
    if (aliased.length > 0 && options.rest === undefined) {
      // Read as the names they stand for (an error inside one then names it so).
      const renamed = Object.fromEntries(
        Object.entries(input).map(([k, value]) => [aliases[k] ?? k, value]),
      );
      return v.pipe(v.unknown(), v.transform(() => renamed), strict) as unknown as Schema<T>;
    }
    // valibot drops the keys __proto__, constructor and prototype from what it
    // returns (against prototype pollution): a column of that name would
    // vanish, and { where: { constructor: "y" } } match every row. They are
    // validated here and put back as own properties.
    const special = options.rest === undefined ? [] : keys.filter((k) => UNSAFE_KEYS.has(k));
    if (special.length > 0) {
      const kept: [string, unknown][] = [];
      for (const key of special) {
        const r = v.safeParse(options.rest!, (input as Record<string, unknown>)[key]);
        if (!r.success) return `${key}: ${r.issues[0].message}`;
        kept.push([key, r.output]);
      }
      return v.pipe(
        strict,
        v.transform((out) => {
          for (const [key, value] of kept) {
            Object.defineProperty(out, key, {
              value,
              enumerable: true,
              writable: true,
              configurable: true,
            });
          }
          return out;
        }),
      ) as unknown as Schema<T>;
    }
    // The entries and rest validate to T by construction of each caller.
    return strict as unknown as Schema<T>;
  });
}

const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** Every key of `entries` wrapped as exactly optional. */
export function optionalEntries(entries: Record<string, Schema<unknown>>): v.ObjectEntries {
  const out: v.ObjectEntries = {};
  for (const [key, schema] of Object.entries(entries)) out[key] = v.exactOptional(schema);
  return out;
}

/** Text. */
export function text(what = "text"): Schema<string> {
  return dispatch((input) => typeof input === "string" ? v.string() : expected(what, input));
}

/** A boolean. */
export function bool(): Schema<boolean> {
  return dispatch((input) =>
    typeof input === "boolean" ? v.boolean() : expected("true or false", input)
  );
}

/** A value to compare with: text, number, bigint, boolean or null. */
export function scalar(): Schema<Scalar> {
  return dispatch<Scalar>((input) => {
    if (input === null) return v.null();
    switch (typeof input) {
      case "string":
        return v.string();
      case "number":
        return Number.isFinite(input) ? v.number() : expected("a finite number", input);
      case "bigint":
        return v.bigint();
      case "boolean":
        return v.boolean();
    }
    if (Array.isArray(input)) {
      return `expected a value, got a list; to match any of several values use {"$in": [...]}`;
    }
    return expected("a value (text, number, true, false or null)", input);
  });
}

/** A list of `item`; refuses an empty list when `nonEmpty` names what it needs. */
export function list<T>(item: Schema<T>, what: string, nonEmpty?: string): Schema<T[]> {
  return dispatch((input) => {
    if (!Array.isArray(input)) return expected(what, input);
    if (nonEmpty !== undefined && input.length === 0) return `empty list; ${nonEmpty}`;
    return v.array(item);
  });
}

/** One of a fixed set of words, with "did you mean" for a typo. */
export function word<const W extends string>(words: readonly W[], kind: string): Schema<W> {
  return dispatch((input) => {
    if (typeof input !== "string") return expected(`one of ${words.join(", ")}`, input);
    if (!(words as readonly string[]).includes(input)) return unknownName(kind, input, words);
    return v.picklist(words);
  });
}
