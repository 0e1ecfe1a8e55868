"""gunicorn's own log lines as JSON (`--logger-class service.observability.gunicorn_logger.JsonLogger`)."""
from __future__ import annotations

from gunicorn.glogging import Logger

from .logs import JsonFormatter


class JsonLogger(Logger):
    """Error-log lines (boot, worker start and exit, timeouts) as JSON. The access log is left
    to the app, whose request line carries the request and round ids gunicorn does not know."""

    def setup(self, cfg) -> None:
        super().setup(cfg)
        for handler in self.error_log.handlers:
            handler.setFormatter(JsonFormatter())

    def access(self, resp, req, environ, request_time) -> None:
        return
