/**
 * Calls of one kind where only the latest counts, as Lit's Task keeps a call id: the console's list loads (a slow
 * "Show more" overtaken by another filter) and the payment it opens (a slow one overtaken by the operator's next
 * choice). An earlier call's answer, or its failure, is dropped once a later one has started.
 */
export class LatestCall {
  #latest = 0;

  /** `work`'s answer, or undefined when a later call started before it came; its failure only when it is the latest. */
  async run<T>(work: () => Promise<T>): Promise<{ value: T } | undefined> {
    const call = ++this.#latest;
    try {
      const value = await work();
      return call === this.#latest ? { value } : undefined;
    } catch (error) {
      if (call !== this.#latest) return undefined;
      throw error;
    }
  }
}
