"""This process's metric samples read as a scrape reads them (through its registry), not through
the metric objects' private values."""
from __future__ import annotations

from service.metrics import metrics


def sample(name: str, **labels: str) -> float:
    """The sample's value, 0 for a labelled series not yet written."""
    registry = metrics().registry
    assert registry is not None, "the tests run in one process, whose metrics have a registry"
    return registry.get_sample_value(name, labels) or 0.0
