/**
 * A column of numbers that grows as a recording is read: a Float64Array doubled when full, eight
 * bytes a value instead of a slot in an array of boxed numbers.
 */
export class Float64Column {
  private values = new Float64Array(1024);
  private size = 0;

  get length(): number {
    return this.size;
  }

  push(value: number): void {
    if (this.size === this.values.length) {
      const larger = new Float64Array(this.values.length * 2);
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
