"""gunicorn settings for the API: `gunicorn -c ops/gunicorn.conf.py 'service.app:create_app()'`.
Each worker builds its own app and connection pool after the fork (no preload)."""
import multiprocessing
import os

bind = f"127.0.0.1:{os.environ.get('PORT', '8000')}"
# One worker per core and one more: a request spends most of its time on the CPU, here or in
# PostgreSQL on the same machine, and each further worker in flight costs every request some of it
# (more processes and backends taking turns on the cores, idle workers woken for each connection).
# See docs/benchmarks.md for what 2 × cores + 1 cost. A host whose database is elsewhere, or whose
# requests wait longer on it, may want more: WEB_CONCURRENCY.
workers = int(os.environ.get("WEB_CONCURRENCY") or multiprocessing.cpu_count() + 1)
worker_class = "sync"
preload_app = False          # a pool opened before fork would share sockets between workers
timeout = 30
graceful_timeout = 10
# Nothing here uses gunicorn's control interface, and instances side by side (two APIs on one
# machine) would each take its one default socket path from the other.
control_socket_disable = True
accesslog = "-"              # method, path, status: never a body
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(L)ss pid=%(p)s'


def on_starting(server):
    """Migrate (and seed the paytable files) once, in the master, before any worker serves a request."""
    from service.commands.migrate import prepare_database
    from service.config import Settings

    settings = Settings.from_env()
    prepared = prepare_database(settings.owner_database_url)
    if prepared.applied:
        server.log.info("migrations applied: %s", ", ".join(prepared.applied))
    if prepared.seeded:
        server.log.info("paytables seeded from their files: %s", ", ".join(prepared.seeded))
    share_console_keys(server, settings)


def share_console_keys(server, settings):
    """Where no console keys are configured (`make run` always configures them), keys made here,
    in the master, for every worker it forks: sessions and forms work whichever worker answers,
    and end with this server."""
    from service.staff.keys import StaffKeys

    if settings.secret_key and settings.totp_key:
        return
    made = StaffKeys.generate()
    os.environ.setdefault("PONTOON_SECRET_KEY", made.signing_key)
    os.environ.setdefault("PONTOON_TOTP_KEY", made.totp_key)
    server.log.warning("no PONTOON_SECRETS_FILE (or PONTOON_SECRET_KEY and PONTOON_TOTP_KEY): console keys "
                       "made for this server alone; its sessions and TOTP enrolments end with it")


# Liveness on a port of its own (PONTOON_HEALTH_PORT), answered by this master process whatever the
# workers wait on: service/observability/liveness.py.
liveness = None


def when_ready(server):
    global liveness
    from service.config import Settings
    from service.observability.liveness import LivenessListener

    port = Settings.from_env().health_port
    if port:
        host = bind.rsplit(":", 1)[0]
        liveness = LivenessListener(host, port).start()
        server.log.info("liveness on http://%s:%s/healthz", host, liveness.port)


def post_fork(server, worker):
    if liveness is not None:
        liveness.close_in_child()


def on_exit(server):
    if liveness is not None:
        liveness.close()


def worker_exit(server, worker):
    pool = getattr(worker, "wsgi", None) and worker.wsgi.extensions.get("pontoon.pool")
    if pool is not None:
        pool.close()


def child_exit(server, worker):
    """In the master, once a worker is gone: drop its live metric gauges (multiprocess mode)."""
    from service.metrics.multiproc import worker_exited

    worker_exited(worker.pid)
