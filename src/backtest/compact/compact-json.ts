/**
 * A compact binary form of JSON values, for holding a recording's lines in memory at a fraction of
 * what parsed JSON costs (issue 39: about 7 KB resident per parsed 3 KB line; this form takes
 * about 0.4 KB). decode(encode(x)) is a value that JSON.stringify writes as JSON.stringify(x)
 * writes x, key order included (test/backtest/compact-recording.test.ts checks it on every line
 * of the fixtures and on awkward values).
 *
 * What makes it small:
 * - an object's keys are written once per distinct key list (its shape, as V8 calls a hidden
 *   class): a line stores a shape number and then its values;
 * - numbers with at most four decimals ("3078.27") are written as a scaled integer in a few bytes
 *   when dividing back gives the very same double; others take eight bytes;
 * - a string seen twice is kept once in a table (bank names, score bands, dates); others inline;
 *   a time as toISOString writes it is kept as its milliseconds.
 *
 * The bytes go into chunks of a few MB held outside the JavaScript heap; a value is named by its
 * address (chunk * CHUNK_BYTES + offset), a plain number a column can hold.
 *
 * decodeDeferring builds an object without some of its keys' values: each is stepped over without
 * building anything and its address kept, to be decoded only if asked for (a replay's request
 * whose strategy buys no banking data never needs that data's fifty numbers).
 */

import { ShapeTable, type JsonValue } from './compact-shapes.js';

const CHUNK_BYTES = 1 << 22;
const TAG_NULL = 0;
const TAG_FALSE = 1;
const TAG_TRUE = 2;
const TAG_UINT = 3;
const TAG_NEG_INT = 4;
/** TAG_DECIMAL + d (d = 1..4): a non-negative integer k read as k / 10^d; TAG_NEG_DECIMAL + d: its negative. */
const TAG_DECIMAL = 4;
const TAG_NEG_DECIMAL = 8;
const TAG_FLOAT = 13;
const TAG_ASCII = 14;
const TAG_UTF8 = 15;
const TAG_TABLE_STRING = 16;
const TAG_ARRAY = 17;
const TAG_OBJECT = 18;
/** A string that is not well-formed UTF-16 (a lone surrogate): kept as its JSON text, which UTF-8 carries intact. */
const TAG_JSON_STRING = 19;
/** A time as Date#toISOString writes it ("2026-01-01T00:00:01.572Z"): its milliseconds since 1970, 6 bytes instead of 25. */
const TAG_ISO_TIME = 20;

/** The shape of Date#toISOString for years 1970-9999; the text must also be what toISOString writes back. */
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d\d\dZ$/;

const POWERS = [1, 10, 100, 1000, 10000];
/** Strings longer than this are never put in the table (they are ids and memos, rarely repeated). */
const TABLE_MAX_LENGTH = 48;
/**
 * At most this many strings in the table; later ones are written inline. The strings that repeat
 * across a recording (bank names, dates, score bands, model versions, initials) are a few
 * thousand; the table lives on the JavaScript heap, so it stays small.
 */
const TABLE_MAX_SIZE = 1 << 16;
/** Strings seen once, remembered to be put in the table when seen again; cleared when this full. */
const CANDIDATES_MAX_SIZE = 1 << 14;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Writes and reads compact values; one per recording held in memory. */
export class CompactJson {
  private readonly chunks: Buffer[] = [];
  private chunk: Buffer = Buffer.alloc(0);
  private chunkIndex = -1;
  private used = 0;
  /** Scratch space a value is written into before it is copied into a chunk in one piece. */
  private scratch = Buffer.allocUnsafe(1 << 16);
  private at = 0;
  private readonly shapes = new ShapeTable();
  private readonly table: string[] = [];
  private readonly tableIndex = new Map<string, number>();
  private readonly candidates = new Set<string>();
  /** Reads one value where the cursor is, for the shapes' object builders. */
  private readonly readValue = (): JsonValue => this.read();
  /** The last time written and read (a one-entry memo each: a line repeats its time). */
  private lastTimeText = '';
  private lastTimeMs = Number.NaN;
  private lastReadMs = Number.NaN;
  private lastReadText = '';
  /** Where decode reads next (decoding is synchronous: one cursor serves every read). */
  private cursor = 0;
  private reading: Buffer = Buffer.alloc(0);
  /** The address of `reading`'s first byte. */
  private readingBase = 0;
  /** Where decodeDeferring writes the addresses of the values it steps over. */
  private deferredAt: number[] = [];
  /** Steps over the value of the `index`th deferred key, keeping its address (the shapes' deferring builders call it). */
  private readonly deferValue = (index: number): undefined => {
    this.deferredAt[index] = this.readingBase + this.cursor;
    this.skip();
    return undefined;
  };

  /** Bytes held in chunks (the memory this form costs, beside its tables). */
  get bytes(): number {
    return this.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  }

  /** Writes `value` and returns its address. */
  encode(value: unknown): number {
    this.at = 0;
    this.write(value as JsonValue);
    const length = this.at;
    if (this.used + length > this.chunk.length) {
      this.chunk = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, length));
      this.chunks.push(this.chunk);
      this.chunkIndex += 1;
      this.used = 0;
    }
    this.scratch.copy(this.chunk, this.used, 0, length);
    const address = this.chunkIndex * CHUNK_BYTES + this.used;
    this.used += length;
    return address;
  }

  /** The value written at `address`, built anew (callers may keep or drop it). */
  decode(address: number): unknown {
    this.seek(address);
    return this.read();
  }

  /**
   * The object at `address` without the values of the `deferred` keys: each is stepped over and
   * its address written to `at` at the key's index in `deferred` (-1 when the object lacks the
   * key), for decode to build when asked. The deferred keys read undefined on the object built.
   * A value that is not an object is decoded whole.
   */
  decodeDeferring(address: number, deferred: readonly string[], at: number[]): unknown {
    this.seek(address);
    at.fill(-1, 0, deferred.length);
    if (this.reading[this.cursor] !== TAG_OBJECT) return this.read();
    this.cursor += 1;
    const shape = this.readVarint();
    this.deferredAt = at;
    return this.shapes.deferringBuilder(shape, deferred, this.readValue, this.deferValue)();
  }

  private seek(address: number): void {
    const chunk = Math.floor(address / CHUNK_BYTES);
    this.reading = this.chunks[chunk] as Buffer;
    this.readingBase = chunk * CHUNK_BYTES;
    this.cursor = address - this.readingBase;
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.scratch.length) return;
    const larger = Buffer.allocUnsafe(Math.max(this.scratch.length * 2, this.at + bytes));
    this.scratch.copy(larger, 0, 0, this.at);
    this.scratch = larger;
  }

  private byte(value: number): void {
    this.room(1);
    this.scratch[this.at++] = value;
  }

  /** A non-negative safe integer, seven bits a byte. */
  private varint(value: number): void {
    this.room(8);
    let rest = value;
    while (rest >= 0x80) {
      this.scratch[this.at++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.scratch[this.at++] = rest;
  }

  private write(value: JsonValue): void {
    // Numbers and strings first: most of a line's values.
    if (typeof value === 'number') this.number(value);
    else if (typeof value === 'string') this.string(value);
    else if (value === null) this.byte(TAG_NULL);
    else if (value === true) this.byte(TAG_TRUE);
    else if (value === false) this.byte(TAG_FALSE);
    else if (Array.isArray(value)) {
      this.byte(TAG_ARRAY);
      this.varint(value.length);
      for (const item of value) this.write(item);
    } else {
      const keys = Object.keys(value);
      const shape = this.shapes.idOf(keys);
      this.byte(TAG_OBJECT);
      this.varint(shape);
      // Object.values lists the values in the order of Object.keys, in one call (a keyed read per key is slower).
      for (const item of Object.values(value)) this.write(item);
    }
  }

  private number(value: number): void {
    if (Number.isSafeInteger(value) && !Object.is(value, -0)) {
      this.byte(value < 0 ? TAG_NEG_INT : TAG_UINT);
      this.varint(Math.abs(value));
      return;
    }
    const magnitude = Math.abs(value);
    if (!Object.is(value, -0) && magnitude <= Number.MAX_SAFE_INTEGER) {
      for (let d = 0; d < POWERS.length; d += 1) {
        const power = POWERS[d] as number;
        const k = Math.round(magnitude * power);
        if (k > Number.MAX_SAFE_INTEGER) break;
        // Only when dividing back gives the very same double: decode computes exactly this.
        if (k / power === magnitude) {
          this.byte(d === 0 ? (value < 0 ? TAG_NEG_INT : TAG_UINT) : value < 0 ? TAG_NEG_DECIMAL + d : TAG_DECIMAL + d);
          this.varint(k);
          return;
        }
      }
    }
    this.byte(TAG_FLOAT);
    this.room(8);
    this.scratch.writeDoubleLE(value, this.at);
    this.at += 8;
  }

  private string(value: string): void {
    if (value.length === 24 && value.charCodeAt(23) === 90) {
      // A line repeats one time in several fields (seen_at, created, a score's timestamp).
      if (value === this.lastTimeText) {
        this.byte(TAG_ISO_TIME);
        this.varint(this.lastTimeMs);
        return;
      }
      const ms = ISO_TIME.test(value) ? Date.parse(value) : Number.NaN;
      if (ms >= 0 && new Date(ms).toISOString() === value) {
        this.lastTimeText = value;
        this.lastTimeMs = ms;
        this.byte(TAG_ISO_TIME);
        this.varint(ms);
        return;
      }
    }
    if (value.length <= TABLE_MAX_LENGTH) {
      const index = this.tableIndex.get(value);
      if (index !== undefined) {
        this.byte(TAG_TABLE_STRING);
        this.varint(index);
        return;
      }
      if (this.candidates.has(value) && this.table.length < TABLE_MAX_SIZE) {
        this.candidates.delete(value);
        this.tableIndex.set(value, this.table.length);
        this.table.push(value);
        this.byte(TAG_TABLE_STRING);
        this.varint(this.table.length - 1);
        return;
      }
      if (this.candidates.size >= CANDIDATES_MAX_SIZE) this.candidates.clear();
      this.candidates.add(value);
    }
    if (value.length <= TABLE_MAX_LENGTH && this.writeAscii(value)) return;
    let text = value;
    let length = Buffer.byteLength(text, 'utf8');
    let tag = length === text.length ? TAG_ASCII : TAG_UTF8;
    if (tag === TAG_UTF8 && LONE_SURROGATE.test(value)) {
      text = JSON.stringify(value);
      length = Buffer.byteLength(text, 'utf8');
      tag = TAG_JSON_STRING;
    }
    this.byte(tag);
    this.varint(length);
    this.room(length);
    this.at += this.scratch.write(text, this.at, 'utf8');
  }

  /** A short ASCII string written byte by byte (cheaper than a call into Buffer#write); false, and nothing written, when not ASCII. */
  private writeAscii(value: string): boolean {
    for (let index = 0; index < value.length; index += 1) if (value.charCodeAt(index) >= 0x80) return false;
    this.byte(TAG_ASCII);
    this.varint(value.length);
    this.room(value.length);
    for (let index = 0; index < value.length; index += 1) this.scratch[this.at++] = value.charCodeAt(index);
    return true;
  }

  private readVarint(): number {
    const bytes = this.reading;
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = bytes[this.cursor++] as number;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }

  /** Moves the cursor past one value, building nothing. */
  private skip(): void {
    const tag = this.reading[this.cursor++] as number;
    if (tag <= TAG_TRUE) return;
    if (tag === TAG_FLOAT) this.cursor += 8;
    else if (tag === TAG_ASCII || tag === TAG_UTF8 || tag === TAG_JSON_STRING) {
      const length = this.readVarint();
      this.cursor += length;
    } else if (tag === TAG_ARRAY) {
      for (let left = this.readVarint(); left > 0; left -= 1) this.skip();
    } else if (tag === TAG_OBJECT) {
      for (let left = this.shapes.size(this.readVarint()); left > 0; left -= 1) this.skip();
    } else if (tag <= TAG_ISO_TIME) {
      // Every other tag (integers, decimals, table strings, times) is followed by one varint.
      while ((this.reading[this.cursor++] as number) >= 0x80);
    } else throw new RangeError(`compact value: unknown tag ${tag}`);
  }

  private read(): JsonValue {
    const tag = this.reading[this.cursor++] as number;
    switch (tag) {
      case TAG_NULL:
        return null;
      case TAG_FALSE:
        return false;
      case TAG_TRUE:
        return true;
      case TAG_UINT:
        return this.readVarint();
      case TAG_NEG_INT:
        return -this.readVarint();
      case TAG_FLOAT: {
        const value = this.reading.readDoubleLE(this.cursor);
        this.cursor += 8;
        return value;
      }
      case TAG_ISO_TIME: {
        const ms = this.readVarint();
        if (ms !== this.lastReadMs) {
          this.lastReadMs = ms;
          this.lastReadText = new Date(ms).toISOString();
        }
        return this.lastReadText;
      }
      case TAG_TABLE_STRING:
        return this.table[this.readVarint()] as string;
      case TAG_ASCII:
      case TAG_UTF8:
      case TAG_JSON_STRING: {
        const length = this.readVarint();
        const start = this.cursor;
        this.cursor += length;
        const text = this.reading.toString(tag === TAG_ASCII ? 'latin1' : 'utf8', start, this.cursor);
        return tag === TAG_JSON_STRING ? (JSON.parse(text) as string) : text;
      }
      case TAG_ARRAY: {
        const length = this.readVarint();
        const items: JsonValue[] = new Array<JsonValue>(length);
        for (let index = 0; index < length; index += 1) items[index] = this.read();
        return items;
      }
      case TAG_OBJECT: {
        const shape = this.readVarint();
        return this.shapes.builder(shape, this.readValue)();
      }
      default: {
        if (tag > TAG_NEG_DECIMAL && tag < TAG_FLOAT) return -this.readVarint() / (POWERS[tag - TAG_NEG_DECIMAL] as number);
        if (tag > TAG_DECIMAL && tag <= TAG_NEG_DECIMAL) return this.readVarint() / (POWERS[tag - TAG_DECIMAL] as number);
        throw new RangeError(`compact value: unknown tag ${tag}`);
      }
    }
  }
}
