"""The dashboard's one cache rule (ui.state.cache.RecentCache): keep the entries used
last, forget the least recently used one first."""

from ui.state.cache import RecentCache


def test_the_least_recently_used_entry_goes_first():
    cache = RecentCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # a is now used more recently than b
    cache.put("c", 3)  # a third entry: b, used least recently, is forgotten
    assert "b" not in cache and cache.get("b") is None
    assert cache["a"] == 1 and cache["c"] == 3
    assert len(cache) == 2


def test_asking_whether_an_entry_is_there_is_not_a_use():
    cache = RecentCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert "a" in cache  # not a use: a stays the least recently used
    cache.put("c", 3)
    assert "a" not in cache and "b" in cache and "c" in cache


def test_putting_a_key_again_replaces_its_value_and_counts_as_a_use():
    cache = RecentCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.put("a", 10) == 10
    cache.put("c", 3)  # b is the least recently used now
    assert cache.get("a") == 10 and "b" not in cache
