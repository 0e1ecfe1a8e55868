"""The migrations' file names: numbered in order, each number used once, no gap but the known one."""
import re

from service.store.migrate import MIGRATIONS

NEVER_WRITTEN = {3, 12}   # see service/store/migrate.py: applied databases record the rest by name


def _numbers() -> list[int]:
    names = sorted(path.name for path in MIGRATIONS.glob("*.sql"))
    assert names, "no migrations found"
    for name in names:
        assert re.fullmatch(r"\d{4}_[a-z0-9_]+\.sql", name), f"{name} is not NNNN_what_it_does.sql"
    return [int(name[:4]) for name in names]


def test_each_migration_number_is_used_once():
    numbers = _numbers()
    assert len(numbers) == len(set(numbers)), sorted(n for n in numbers if numbers.count(n) > 1)


def test_the_numbers_follow_on_from_one_but_for_the_one_never_written():
    numbers = set(_numbers())
    assert numbers == set(range(1, max(numbers) + 1)) - NEVER_WRITTEN
