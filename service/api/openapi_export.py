"""Prints the OpenAPI document generated from the code (`make openapi` writes openapi.yaml)."""
from __future__ import annotations

import sys


def spec_yaml() -> str:
    from .app import create_app

    app = create_app(connect=False)
    return app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_yaml()


def main() -> int:
    sys.stdout.write(spec_yaml())
    return 0


if __name__ == "__main__":
    sys.exit(main())
