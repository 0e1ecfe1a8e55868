"""`python -m service.metrics.serve --port 9101`: /metrics for a host that runs workers but no API,
read from the PROMETHEUS_MULTIPROC_DIR its worker processes write to."""
from __future__ import annotations

import argparse
import signal
import sys
import threading

from prometheus_client import CollectorRegistry, multiprocess, start_http_server

from .multiproc import multiprocess_dir


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service.metrics.serve", description=__doc__)
    parser.add_argument("--port", type=int, default=9101)
    parser.add_argument("--bind", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    args = parser.parse_args(argv)
    directory = multiprocess_dir()
    if directory is None:
        print("set PROMETHEUS_MULTIPROC_DIR to the directory the workers write their metrics to", file=sys.stderr)
        return 2
    registry = CollectorRegistry(auto_describe=False)
    multiprocess.MultiProcessCollector(registry, path=directory)
    server, thread = start_http_server(args.port, addr=args.bind, registry=registry)
    print(f"worker metrics on http://{args.bind}:{args.port}/metrics", file=sys.stderr, flush=True)
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    stop.wait()
    server.shutdown()
    thread.join(5)
    return 0


if __name__ == "__main__":
    sys.exit(main())
