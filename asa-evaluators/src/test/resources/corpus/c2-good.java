package dev.example.cache;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A fixed-capacity least-recently-used (LRU) cache. Reading or writing a key makes it the most
 * recently used; when the cache is full, adding a new key evicts the least recently used one.
 *
 * <p>Thread-safe: every method holds the cache's lock, which is enough for caches shared by a
 * handful of threads. get and put run in O(1).
 */
public final class LruCache<K, V> {

  private final int capacity;
  private final LinkedHashMap<K, V> entries;
  private long hits;
  private long misses;

  public LruCache(int capacity) {
    if (capacity <= 0) {
      throw new IllegalArgumentException("capacity must be positive, got " + capacity);
    }
    this.capacity = capacity;
    // accessOrder = true: iteration order is least recently used first.
    this.entries = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > LruCache.this.capacity;
      }
    };
  }

  /** The cached value, or null when the key is absent (a miss). */
  public synchronized V get(K key) {
    Objects.requireNonNull(key, "key");
    V value = entries.get(key);
    if (value == null) {
      misses++;
    } else {
      hits++;
    }
    return value;
  }

  /** Caches the value, evicting the least recently used entry when the cache is full. */
  public synchronized void put(K key, V value) {
    entries.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
  }

  public synchronized int size() {
    return entries.size();
  }

  /** Share of lookups that found their key, 0 when there were none. */
  public synchronized double hitRate() {
    long lookups = hits + misses;
    return lookups == 0 ? 0 : (double) hits / lookups;
  }
}

// ---------------------------------------------------------------- LruCacheTest.java

class LruCacheTest {

  @org.junit.jupiter.api.Test
  void evictsLeastRecentlyUsed() {
    LruCache<String, Integer> cache = new LruCache<>(2);
    cache.put("a", 1);
    cache.put("b", 2);
    cache.get("a"); // a is now the most recently used
    cache.put("c", 3); // evicts b
    org.assertj.core.api.Assertions.assertThat(cache.get("b")).isNull();
    org.assertj.core.api.Assertions.assertThat(cache.get("a")).isEqualTo(1);
    org.assertj.core.api.Assertions.assertThat(cache.get("c")).isEqualTo(3);
  }

  @org.junit.jupiter.api.Test
  void countsHitsAndMisses() {
    LruCache<String, Integer> cache = new LruCache<>(1);
    cache.put("a", 1);
    cache.get("a");
    cache.get("z");
    org.assertj.core.api.Assertions.assertThat(cache.hitRate()).isEqualTo(0.5);
  }

  @org.junit.jupiter.api.Test
  void rejectsZeroCapacity() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new LruCache<String, Integer>(0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
