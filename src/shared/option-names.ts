/**
 * Option groups refuse names they do not know. An option given under a name nobody reads (`limits: {
 * createPerMinute: 5 }`, a store's `keyprefix`, `timeouts: { hookTimeoutMs }`) was ignored without a word and its
 * default kept, which the shop found out only when the limit, the prefix or the deadline it meant did not hold: the
 * start stops instead, naming the name and those the group takes. Plain JavaScript and configuration files reach
 * these options without the compiler's excess-property check, so it is made here, once for every group.
 */

/**
 * Every name of an options type, given as `{name: true}` for each: the compiler then fails when an option is added
 * to the type and not here, so that a new option is never refused as unknown.
 */
export function optionNames<T extends object>(names: { [name in keyof Required<T>]: true }): readonly string[] {
  return Object.keys(names);
}

/** Throws, naming them, when `given` has a name that is not among `known`; `where` says whose (`createPayinProxy: limits`). */
export function refuseUnknownNames(where: string, given: object | undefined, known: readonly string[]): void {
  if (given === null || typeof given !== 'object') return;
  const unknown = Object.keys(given).filter((name) => !known.includes(name));
  if (unknown.length) throw new TypeError(`${where} has no ${unknown.join(', ')}; it takes ${known.join(', ')}.`);
}

/**
 * The group's defaults with what was given over them. A name that is not among the defaults' stops the start (above);
 * a field given as undefined keeps its default rather than becoming undefined (`open > undefined` is false: a limit
 * of undefined was no limit at all).
 */
export function overDefaults<T extends object>(where: string, defaults: T, given: Partial<T> | undefined): T {
  refuseUnknownNames(where, given, Object.keys(defaults));
  const defined = Object.fromEntries(Object.entries(given ?? {}).filter(([, value]) => value !== undefined));
  return { ...defaults, ...defined };
}
