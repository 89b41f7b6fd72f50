'use strict';

/** A least-recently-used cache of at most `capacity` entries. */
class LruCache {
  constructor(capacity) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    this.capacity = capacity;
    this.entries = new Map();
  }

  get(key) {
    return this.entries.get(key);
  }

  set(key, value) {
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      this.entries.delete(oldest);
    }
    return this;
  }

  has(key) {
    return this.entries.has(key);
  }

  get size() {
    return this.entries.size;
  }
}

module.exports = { LruCache };
