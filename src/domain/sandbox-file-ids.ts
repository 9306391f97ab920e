// The new ids of an import's rows, in bounded memory (docs/sandboxes.md, "New ids"): a
// Map of every old id to a new one cost ~150 bytes an id (~150 MiB for a file of a
// million rows). The platform's ids are UUID v7 (src/lib/ids.ts: 48 bits of time, a
// counter, then random bits), so a UUID's new id is computed, not kept: its last 40
// random bits XORed with a key drawn for this import (its time and counter are kept, so
// the rows keep their order; another import of the same file draws another key). What is
// kept is whether an id is one the file holds or names: 8 bytes a UUID, in an open-
// addressing table of fingerprints (a false match, about 1 in 10^7 for a million ids, at
// worst remaps a UUID inside a text that was no id of the file). Ids that are not UUIDs
// (hand-made test data) keep a Map entry with a new UUID from `newId`. Pure.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HEX = '0123456789abcdef';

/** A set of UUIDs as 64-bit fingerprints (two 32-bit words a slot; 0,0 is an empty slot). */
class FingerprintSet {
  private slots = new Uint32Array(2 * 1024);
  private count = 0;

  private static words(id: string): [number, number] {
    const w0 = parseInt(id.slice(0, 8), 16);
    const w1 = parseInt(id.slice(9, 13) + id.slice(14, 18), 16);
    const w2 = parseInt(id.slice(19, 23) + id.slice(24, 28), 16);
    const w3 = parseInt(id.slice(28, 36), 16);
    const hi = (w0 ^ w2) >>> 0;
    const lo = (w1 ^ w3) >>> 0;
    return hi === 0 && lo === 0 ? [0, 1] : [hi, lo];
  }

  private find(hi: number, lo: number, slots = this.slots): number {
    const mask = slots.length / 2 - 1;
    let i = (Math.imul(hi, 0x9e3779b1) ^ Math.imul(lo, 0x85ebca6b)) & mask;
    for (;;) {
      const a = slots[2 * i]!;
      const b = slots[2 * i + 1]!;
      if ((a === hi && b === lo) || (a === 0 && b === 0)) return i;
      i = (i + 1) & mask;
    }
  }

  has(id: string): boolean {
    const [hi, lo] = FingerprintSet.words(id);
    const i = this.find(hi, lo);
    return this.slots[2 * i] === hi && this.slots[2 * i + 1] === lo;
  }

  /** Adds the id; false when it was there already. */
  add(id: string): boolean {
    const [hi, lo] = FingerprintSet.words(id);
    const i = this.find(hi, lo);
    if (this.slots[2 * i] === hi && this.slots[2 * i + 1] === lo) return false;
    this.slots[2 * i] = hi;
    this.slots[2 * i + 1] = lo;
    if (++this.count * 2 > this.slots.length / 2) this.grow();
    return true;
  }

  private grow(): void {
    const old = this.slots;
    const slots = new Uint32Array(old.length * 2);
    for (let j = 0; j < old.length; j += 2) {
      if (old[j] === 0 && old[j + 1] === 0) continue;
      const i = this.find(old[j]!, old[j + 1]!, slots);
      slots[2 * i] = old[j]!;
      slots[2 * i + 1] = old[j + 1]!;
    }
    this.slots = slots;
  }
}

/**
 * The ids of a file: those of its rows (`add`: false for an id seen before) and those its
 * rows name (`name`); `get` answers the new id of either, undefined for any other.
 */
export class FileIds {
  private readonly own = new FingerprintSet();
  private readonly named = new FingerprintSet();
  private readonly others = new Map<string, string>();
  private readonly namedOthers = new Set<string>();
  /** 10 hex digits, XORed into the last 10 of a UUID. */
  private readonly key: number[];

  constructor(
    private readonly newId: () => string,
    keyBytes: Uint8Array,
  ) {
    this.key = Array.from(keyBytes.subarray(0, 5)).flatMap((b) => [b >> 4, b & 15]);
    if (!this.key.some((k) => k !== 0)) this.key[9] = 1;
  }

  private mapped(id: string): string {
    let tail = '';
    for (let i = 0; i < 10; i++) tail += HEX[HEX.indexOf(id[26 + i]!) ^ this.key[i]!];
    return id.slice(0, 26) + tail;
  }

  /** Whether a row of the file has this id. */
  has(id: string): boolean {
    return UUID.test(id) ? this.own.has(id) : this.others.has(id);
  }

  /** A row's id: its new id, or undefined when a row before had it. */
  add(id: string): string | undefined {
    if (UUID.test(id)) return this.own.add(id) ? this.mapped(id) : undefined;
    if (this.others.has(id)) return undefined;
    const fresh = this.newId();
    this.others.set(id, fresh);
    return fresh;
  }

  /** An id a row names (a reference): mapped too, whether or not a row of the file has it. */
  name(id: string): void {
    if (UUID.test(id)) this.named.add(id);
    else if (!this.others.has(id)) this.namedOthers.add(id);
  }

  /** After the last row: references to no row of the file get new ids of their own (they stay dangling, never naming another sandbox's row). */
  settle(): void {
    for (const id of this.namedOthers) if (!this.others.has(id)) this.others.set(id, this.newId());
    this.namedOthers.clear();
  }

  /** The new id of an id of the file (a row's, or one a row names), else undefined. */
  get(id: string): string | undefined {
    if (id.length === 36 && UUID.test(id)) return this.own.has(id) || this.named.has(id) ? this.mapped(id) : undefined;
    return this.others.get(id);
  }
}
