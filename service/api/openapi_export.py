"""Prints the OpenAPI document generated from the code (`make openapi` writes openapi.yaml)."""
from __future__ import annotations

import sys

from flask import Flask

from .install import install


def spec_yaml() -> str:
    """The API's spec, from the API alone mounted on a bare app (no settings, no pool)."""
    return install(Flask("pontoon")).spec.to_yaml()


def main() -> int:
    sys.stdout.write(spec_yaml())
    return 0


if __name__ == "__main__":
    sys.exit(main())
