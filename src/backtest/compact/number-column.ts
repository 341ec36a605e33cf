/**
 * A column of numbers that grows as a recording is read: a typed array doubled when full, eight
 * bytes a value (one for a small count or flag, `Int8Array`) instead of a slot in an array of
 * boxed numbers. The arrays are in shared memory, so tune's worker threads read the columns
 * without a copy of their own (shared-compact-recording.ts).
 */
export type TypedValues = Float64Array | Int32Array | Int8Array;

const sharedDoubles = (length: number): TypedValues => new Float64Array(new SharedArrayBuffer(length * 8));

export class NumberColumn {
  private values: TypedValues;
  private size = 0;

  /** `make` gives the array of a given length (Float64Array by default; Int8Array for values -128..127). */
  constructor(private readonly make: (length: number) => TypedValues = sharedDoubles) {
    this.values = make(1024);
  }

  /** A column over `values` (another thread's column, shared): its first `length` values. */
  static over(values: TypedValues, length: number): NumberColumn {
    const column = new NumberColumn(() => values);
    column.size = length;
    return column;
  }

  /** The array the values are in (shared memory; only the first `length` count). */
  get storage(): TypedValues {
    return this.values;
  }

  get length(): number {
    return this.size;
  }

  push(value: number): void {
    if (this.size === this.values.length) {
      const larger = this.make(this.values.length * 2);
      larger.set(this.values);
      this.values = larger;
    }
    this.values[this.size] = value;
    this.size += 1;
  }

  get(index: number): number {
    return this.values[index] as number;
  }

  /** Sets a value already pushed; a set one past the end pushes it. */
  set(index: number, value: number): void {
    if (index === this.size) this.push(value);
    else if (index < this.size) this.values[index] = value;
    else throw new RangeError(`column index ${index} beyond its length ${this.size}`);
  }
}

/** A column of small integers (-128..127), one byte each. */
export const smallIntColumn = (): NumberColumn => new NumberColumn((length) => new Int8Array(new SharedArrayBuffer(length)));
