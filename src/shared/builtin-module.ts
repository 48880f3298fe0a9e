/**
 * A module of Node's own (node:crypto, node:http) when the runtime hands it over through
 * `process.getBuiltinModule` (Node 20.16+, Bun, Deno), else undefined. Code that runs everywhere uses it instead
 * of an import, so that bundles for browsers and workers never ask for node:* at all. `has` names a function the
 * module must have, so a stand-in without it counts as absent.
 */
export function builtinModule<T>(id: string, has: keyof T & string): T | undefined {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const module = process?.getBuiltinModule?.(id) as Partial<T> | undefined;
    return typeof module?.[has] === 'function' ? (module as T) : undefined;
  } catch {
    return undefined;
  }
}
