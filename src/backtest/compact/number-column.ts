/**
 * A column of numbers that grows as a recording is read: a typed array doubled when full, eight
 * bytes a value (one for a small count or flag, `Int8Array`) instead of a slot in an array of
 * boxed numbers.
 */
type TypedValues = Float64Array | Int32Array | Int8Array;

export class NumberColumn {
  private values: TypedValues;
  private size = 0;

  /** `make` gives the array of a given length (Float64Array by default; Int8Array for values -128..127). */
  constructor(private readonly make: (length: number) => TypedValues = (length) => new Float64Array(length)) {
    this.values = make(1024);
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
export const smallIntColumn = (): NumberColumn => new NumberColumn((length) => new Int8Array(length));
