"""A thread-safe token-bucket rate limiter.

Each key (for example an API key or a client IP) gets its own bucket that holds up to
`capacity` tokens and refills at `rate` tokens per second. A request is allowed when a
token can be taken from its bucket.
"""

import threading
import time


class TokenBucketLimiter:
    """Rate limiter with one token bucket per key."""

    def __init__(self, rate: float, capacity: int, clock=time.monotonic):
        if rate <= 0 or capacity <= 0:
            raise ValueError("rate and capacity must be positive")
        self._rate = rate
        self._capacity = capacity
        self._clock = clock
        self._buckets = {}  # key -> (tokens, last refill time)
        self._lock = threading.Lock()

    def allow(self, key: str, cost: int = 1) -> bool:
        """Take `cost` tokens from the key's bucket; return False when there are not enough."""
        now = self._clock()
        with self._lock:
            tokens, last = self._buckets.get(key, (self._capacity, now))
            # Refill for the time elapsed since the last call, never above capacity.
            tokens = min(self._capacity, tokens + (now - last) * self._rate)
            if tokens >= cost:
                self._buckets[key] = (tokens - cost, now)
                return True
            self._buckets[key] = (tokens, now)
            return False

    def retry_after(self, key: str, cost: int = 1) -> float:
        """Seconds until `cost` tokens will be available for the key (0 when they are now)."""
        with self._lock:
            tokens, last = self._buckets.get(key, (self._capacity, self._clock()))
        missing = cost - tokens
        return max(0.0, missing / self._rate)


# ---------------------------------------------------------------- tests (pytest)

class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_allows_up_to_capacity_then_refuses():
    clock = FakeClock()
    limiter = TokenBucketLimiter(rate=1, capacity=3, clock=clock)
    assert [limiter.allow("a") for _ in range(4)] == [True, True, True, False]


def test_refills_over_time():
    clock = FakeClock()
    limiter = TokenBucketLimiter(rate=2, capacity=2, clock=clock)
    limiter.allow("a", cost=2)
    clock.now = 0.5
    assert limiter.allow("a")
    assert not limiter.allow("a")


def test_keys_are_independent():
    limiter = TokenBucketLimiter(rate=1, capacity=1, clock=FakeClock())
    assert limiter.allow("a")
    assert limiter.allow("b")


def test_retry_after_reports_wait():
    clock = FakeClock()
    limiter = TokenBucketLimiter(rate=4, capacity=1, clock=clock)
    limiter.allow("a")
    assert limiter.retry_after("a") == 0.25
