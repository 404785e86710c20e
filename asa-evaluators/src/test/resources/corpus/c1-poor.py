import time

calls = {}

def allow(key):
    # rate limit
    now = time.time()
    if key in calls and now - calls[key] < 1:
        return False
    calls[key] = now
    return True
