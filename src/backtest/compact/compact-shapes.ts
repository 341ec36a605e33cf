/**
 * The shapes of the compact form's objects (compact-json.ts): each distinct list of keys, in
 * order, gets a number, so an object is written as its shape's number and its values, and read
 * back by a function that builds the whole object at once.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A node of the shape tree: the key list from the root to it, and the shapes one more key makes. */
interface ShapeNode {
  id: number;
  next: Map<string, ShapeNode> | undefined;
}

/** Numbers key lists, and builds objects of each. */
export class ShapeTable {
  private readonly keys: string[][] = [[]];
  private readonly root: ShapeNode = { id: 0, next: undefined };
  private readonly byFirstKey = new Map<string, number[]>();
  private readonly builders: Array<(() => JsonValue) | undefined> = [];
  /** Per list of deferred keys, the deferring builders by shape. */
  private readonly deferring = new Map<readonly string[], Array<(() => JsonValue) | undefined>>();

  /**
   * The shape of an object with `keys`. The shapes already met with the same first key are tried
   * first, comparing keys by identity (JSON.parse gives the same string object for a repeated
   * key): one lookup per object instead of one per key down the tree.
   */
  idOf(keys: readonly string[]): number {
    const first = keys[0] ?? '';
    const known = this.byFirstKey.get(first);
    if (known !== undefined) {
      for (const id of known) {
        const candidate = this.keys[id] as string[];
        if (candidate.length !== keys.length) continue;
        let same = true;
        for (let index = 0; index < keys.length && same; index += 1) same = candidate[index] === keys[index];
        if (same) return id;
      }
    }
    const id = this.inTree(keys);
    if (known === undefined) this.byFirstKey.set(first, [id]);
    else if (known.length < 16) known.push(id);
    return id;
  }

  private inTree(keys: readonly string[]): number {
    let node = this.root;
    for (const key of keys) {
      node.next ??= new Map();
      let child = node.next.get(key);
      if (child === undefined) {
        child = { id: this.keys.length, next: undefined };
        this.keys.push([...(this.keys[node.id] as string[]), key]);
        node.next.set(key, child);
      }
      node = child;
    }
    return node.id;
  }

  /**
   * A function that reads one object of `shape`, each value by `read`: an object literal with the
   * shape's keys in order, which V8 builds with its final layout at once (setting the keys one by
   * one cost three times the decoding time). Made at the first object of each shape; a recording
   * has a few dozen.
   */
  builder(shape: number, read: () => JsonValue): () => JsonValue {
    let built = this.builders[shape];
    if (built === undefined) this.builders[shape] = built = this.compile(shape, () => 'read()')(read, () => undefined);
    return built;
  }

  /** How many keys an object of `shape` has. */
  size(shape: number): number {
    return (this.keys[shape] as string[]).length;
  }

  /**
   * builder's reader, but each key of `deferred` is handed to `defer` with its index there (which
   * steps over its value and keeps where it is) instead of being read. One cache per `deferred`
   * list: callers pass the same array each time.
   */
  deferringBuilder(
    shape: number,
    deferred: readonly string[],
    read: () => JsonValue,
    defer: (index: number) => undefined,
  ): () => JsonValue {
    let builders = this.deferring.get(deferred);
    if (builders === undefined) this.deferring.set(deferred, (builders = []));
    let built = builders[shape];
    if (built === undefined) {
      const value = (key: string): string => (deferred.includes(key) ? `defer(${deferred.indexOf(key)})` : 'read()');
      builders[shape] = built = this.compile(shape, value)(read, defer);
    }
    return built;
  }

  /** The maker of a reader of `shape`'s objects, each key's value written by `value`. */
  private compile(
    shape: number,
    value: (key: string) => string,
  ): (read: () => JsonValue, defer: (index: number) => undefined) => () => JsonValue {
    const keys = this.keys[shape] as string[];
    // A computed "__proto__" is an own property, as JSON.parse makes it; a plain one would set the prototype.
    const fields = keys.map((key) => `${key === '__proto__' ? '["__proto__"]' : JSON.stringify(key)}: ${value(key)}`);
    // Ajv's and msgpackr's way of compiling a reader (line-check.ts runs generated code the same way).
    return new Function('read', 'defer', `return () => ({ ${fields.join(', ')} });`) as (
      read: () => JsonValue,
      defer: (index: number) => undefined,
    ) => () => JsonValue;
  }
}
