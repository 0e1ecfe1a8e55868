"""openapi.yaml is the spec the code generates, and the live app keeps to it: schemathesis finds
no server error and no response outside the schema."""
from __future__ import annotations

import uuid
import zlib

import psycopg
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from service.api.openapi_export import spec_yaml
from service.store.repositories.keys import KeysRepository
from tests.conftest import ROOT

from .client import Api, flask_sender, ok
from .rounds import round_at_first_decision

TERMINAL_ONLY = {("POST", "/v1/tables/{table_id}/shoes"), ("POST", "/v1/tables/{table_id}/rounds"),
                 ("POST", "/v1/rounds/{round_id}/cards"), ("POST", "/v1/rounds/{round_id}/actions")}
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          negative_data_rejection]


def test_openapi_yaml_is_what_the_code_generates():
    committed = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    assert committed == spec_yaml(), "openapi.yaml is stale: run `make openapi`"


@pytest.fixture(scope="module")
def fuzz_world(app, database_url):
    """A table whose terminal has an open physical round at its first decision, for the fuzzer to
    poke at with real ids as well as random ones."""
    table_id = "FUZZ-" + uuid.uuid4().hex[:6]
    with psycopg.connect(database_url) as conn:
        repo = KeysRepository(conn)
        admin = repo.create(role="admin", table_id=None, name="fuzz", created_by="test")[1]
        terminal = repo.create(role="terminal", table_id=table_id, name="fuzz", created_by="test")[1]
    client = app.test_client()
    ok(Api(flask_sender(client), admin).post("/v1/tables", {"table_id": table_id, "rules": "canberra",
                                                            "paytable": "canberra-standard"}), 201)
    term = Api(flask_sender(client), terminal)
    shoe = ok(term.post(f"/v1/tables/{table_id}/shoes", {"mode": "physical"}), 201)
    state = round_at_first_decision(term, table_id)
    return {"table_id": table_id, "round_id": state["round_id"], "shoe_id": shoe["shoe_id"],
            "admin": admin, "terminal": terminal}


# Generated from the committed spec (the test above keeps it equal to the code's); the calls go
# to the app in-process. (schemathesis.pytest.from_fixture does not run under pytest 9.)
schema = schemathesis.openapi.from_path(ROOT / "openapi.yaml")


@schema.parametrize()
@settings(max_examples=20, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.function_scoped_fixture])
def test_the_app_keeps_to_its_spec(case, app, fuzz_world):
    meta = case.meta
    negative_path = meta is not None and meta.is_negative_at(ParameterLocation.PATH)
    negative_headers = meta is not None and meta.is_negative_at(ParameterLocation.HEADER)
    if case.path_parameters and not negative_path and zlib.crc32(repr(case.body).encode()) % 2 == 0:
        # Half the time aim at the real resources, so requests get past the 404s.
        for name in set(case.path_parameters) & {"table_id", "round_id", "shoe_id"}:
            case.path_parameters[name] = fuzz_world[name]
    on_fuzz_table = bool(case.path_parameters) and case.path_parameters.get("table_id") == fuzz_world["table_id"]
    secret = fuzz_world["terminal"] if (case.method.upper(), case.path) in TERMINAL_ONLY or on_fuzz_table \
        else fuzz_world["admin"]
    # A case whose headers were made invalid on purpose keeps them: a valid key would mask them.
    headers = {} if negative_headers else {"Authorization": f"Bearer {secret}"}
    case.call_and_validate(headers=headers, checks=CHECKS, app=app)
