"""A gaming day starts at a local time every day has exactly once; one that daylight saving skips
or repeats is refused when the service starts."""
from __future__ import annotations

from datetime import time

import pytest

from service.app import create_app
from service.config import Settings
from service.reports.gaming_day import check_day_start


@pytest.mark.parametrize("starts, zone", [(time(6), "Australia/Sydney"), (time(3), "Australia/Sydney"),
                                          (time(2, 30), "UTC"), (time(1, 59), "Australia/Sydney")])
def test_a_time_every_day_has_once_is_accepted(starts, zone):
    check_day_start(starts, zone)


@pytest.mark.parametrize("starts, zone", [(time(2, 30), "Australia/Sydney"), (time(2), "Australia/Sydney"),
                                          (time(1, 30), "America/New_York")])
def test_a_time_daylight_saving_skips_or_repeats_is_refused(starts, zone):
    with pytest.raises(ValueError, match="daylight saving skips or repeats"):
        check_day_start(starts, zone)


def test_the_service_does_not_start_with_such_a_gaming_day():
    settings = Settings.from_env({"GAMING_DAY_STARTS": "02:30", "PONTOON_TZ": "Australia/Sydney"})
    with pytest.raises(ValueError, match="cannot start at 02:30"):
        create_app(settings, connect=False)
