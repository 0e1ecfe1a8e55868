"""A relay between the app and PostgreSQL that records what the app sends, message by message."""
from __future__ import annotations

import socket
import struct
import threading

from psycopg.conninfo import conninfo_to_dict, make_conninfo


class MessageRecorder:
    """A TCP relay between PostgreSQL and its clients (one after another, or several) that keeps
    the type of every message they send once their sessions have started (the protocol's first
    byte of each message)."""

    def __init__(self, database_url: str) -> None:
        params = conninfo_to_dict(database_url)
        self._server = (params.get("host") or "127.0.0.1", int(params.get("port") or 5432))
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = make_conninfo(database_url, host="127.0.0.1", port=self._listener.getsockname()[1],
                                 sslmode="disable", gssencmode="disable")
        self.types: list[str] = []
        self.bodies: list[bytes] = []
        self._lock = threading.Lock()
        self._answers_flow = threading.Event()
        self._answers_flow.set()
        threading.Thread(target=self._serve, daemon=True).start()

    def sent_since(self, mark: int) -> list[str]:
        with self._lock:
            return self.types[mark:]

    def bodies_since(self, mark: int) -> list[bytes]:
        with self._lock:
            return self.bodies[mark:]

    def hold_answers(self) -> None:
        """Keep what the server sends from its clients until release_answers()."""
        self._answers_flow.clear()

    def release_answers(self) -> None:
        self._answers_flow.set()

    def mark(self) -> int:
        with self._lock:
            return len(self.types)

    def _serve(self) -> None:
        while True:
            client, _ = self._listener.accept()
            server = socket.create_connection(self._server)
            threading.Thread(target=self._relay, args=(server, client, None), daemon=True).start()
            threading.Thread(target=self._relay, args=(client, server, bytearray()), daemon=True).start()

    def _relay(self, source: socket.socket, sink: socket.socket, record: bytearray | None) -> None:
        started = False   # the startup message has a length and no type byte
        try:
            while chunk := source.recv(65536):
                if record is None:
                    self._answers_flow.wait()
                    sink.sendall(chunk)
                    continue
                sink.sendall(chunk)
                record += chunk
                while len(record) >= 5:
                    at = 0 if not started else 1
                    length = struct.unpack("!i", record[at:at + 4])[0]
                    if len(record) < at + length:
                        break
                    if started:
                        with self._lock:
                            self.types.append(chr(record[0]))
                            self.bodies.append(bytes(record[at + 4:at + length]))
                    started = True
                    del record[:at + length]
        except OSError:   # one side reset the connection
            pass
        finally:
            # Shut down, not closed: the other direction's thread sees the end rather than a closed socket.
            for end in (sink, source):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
