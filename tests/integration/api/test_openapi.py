"""openapi.yaml is the spec the code generates, and the live app keeps to it: schemathesis, with
every check it has and both valid and invalid data, finds no failure (no server error, no answer
outside the schema, no valid request refused, no invalid one taken, no operation open without a key)."""
from __future__ import annotations

import itertools
import json
import re
import uuid
import zlib

import psycopg
import pytest
import schemathesis
import yaml
from hypothesis import HealthCheck, settings
from openapi_schema_validator import OAS30Validator
from openapi_spec_validator import validate
from schemathesis.checks import CHECKS, load_all_checks
from schemathesis.core.parameters import ParameterLocation

from service.api.docs import IDEMPOTENCY_KEY, IDEMPOTENT_REPLAYED, RETRY_AFTER
from service.api.openapi_export import spec_yaml
from service.api.schemas.rounds import CARD_PATTERN
from service.engine.cards import CardError, parse_card
from service.store.repositories.keys import KeysRepository
from tests.conftest import ROOT
from tests.support.api_client import Api, flask_sender, ok
from tests.support.app_fixtures import chained_key

from .rounds import round_at_first_decision

TERMINAL_ONLY = {("POST", "/v1/tables/{table_id}/shoes"), ("POST", "/v1/tables/{table_id}/rounds"),
                 ("POST", "/v1/rounds/{round_id}/cards"), ("POST", "/v1/rounds/{round_id}/actions")}
load_all_checks()
EVERY_CHECK = CHECKS.get_all()


def test_the_run_has_every_check():
    names = {check.__name__ for check in EVERY_CHECK}
    assert {"positive_data_acceptance", "negative_data_rejection", "not_a_server_error", "ignored_auth",
            "response_schema_conformance"} <= names


def test_openapi_yaml_is_what_the_code_generates():
    committed = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    assert committed == spec_yaml(), "openapi.yaml is stale: run `make openapi`"


SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))


def _unbounded_text(schema: dict, where: str, seen: set[str]) -> list[str]:
    """Where in `schema` a string may be of any length (no maxLength, no enum)."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name in seen:
            return []
        seen.add(name)
        return _unbounded_text(SPEC["components"]["schemas"][name], name, seen)
    found = []
    if schema.get("type") == "string" and "maxLength" not in schema and "enum" not in schema \
            and schema.get("format") not in ("uuid", "date", "date-time"):
        found.append(where)
    for name, inner in (schema.get("properties") or {}).items():
        found += _unbounded_text(inner, f"{where}.{name}", seen)
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            found += _unbounded_text(schema[key], f"{where}[]", seen)
    for key in ("allOf", "oneOf", "anyOf"):
        for index, inner in enumerate(schema.get(key) or ()):
            found += _unbounded_text(inner, f"{where}/{key}{index}", seen)
    return found


def test_every_text_the_api_reads_has_a_length_limit():
    unbounded = []
    for path, item in SPEC["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", ()):
                unbounded += _unbounded_text(parameter["schema"], f"{method} {path} {parameter['name']}", set())
            for content in (operation.get("requestBody") or {}).get("content", {}).values():
                unbounded += _unbounded_text(content["schema"], f"{method} {path} body", set())
    assert unbounded == []


def _component(reference: dict) -> dict:
    return SPEC["components"]["schemas"][reference["$ref"].rsplit("/", 1)[-1]]


OPERATIONS = [(method, path, operation) for path, item in SPEC["paths"].items()
              for method, operation in item.items() if method in ("get", "post", "put", "patch", "delete")]
COMPONENTS = SPEC["components"]["schemas"]
# "Null, and nothing else": how the document writes the null branch of "a thing or null".
NULL_ONLY = {"type": "string", "nullable": True, "enum": [None]}


def _schemas(node: object, where: str) -> list[tuple[str, dict]]:
    """Every mapping under `node`, with where it is (the document's paths and components are
    walked whole: a schema may stand anywhere in them)."""
    found = []
    if isinstance(node, dict):
        found.append((where, node))
        for key, inner in node.items():
            found += _schemas(inner, f"{where}.{key}")
    elif isinstance(node, list):
        for index, inner in enumerate(node):
            found += _schemas(inner, f"{where}[{index}]")
    return found


def _every_schema() -> list[tuple[str, dict]]:
    return _schemas(SPEC["paths"], "paths") + [found for name, schema in COMPONENTS.items()
                                               for found in _schemas(schema, name)]


def test_the_document_is_valid_openapi():
    validate(SPEC)
    assert SPEC["openapi"].startswith("3.0.") and SPEC["servers"]


def test_every_operation_is_named_and_described():
    names = [operation.get("operationId") for _, _, operation in OPERATIONS]
    assert all(re.fullmatch(r"[a-z]+(?:[A-Z][a-z]+)*", name or "") for name in names), names
    assert len(set(names)) == len(names)
    assert [(method, path) for method, path, operation in OPERATIONS
            if not operation.get("summary") or not operation.get("description")] == []


def test_every_array_says_what_it_holds():
    assert [where for where, node in _every_schema() if node.get("type") == "array" and "items" not in node] == []


def test_no_object_is_left_for_a_generator_to_name():
    """An object's shape is a component (one model wherever it stands) or carries a title."""
    inline = [where for where, node in _every_schema()
              if node.get("type") == "object" and "title" not in node and "." in where and node != NULL_ONLY]
    assert inline == []


def test_a_thing_or_null_is_a_strict_choice():
    """Null is a branch of its own: never an enum value beside others, never a nullable with no
    type (which says nothing), never an object branch that takes any object; and an optional
    request field's absence is not written as a default of null."""
    schemas = _every_schema()
    assert [where for where, node in schemas if node.get("nullable") and "type" not in node] == []
    assert [where for where, node in schemas if None in (node.get("enum") or [None]) and node.get("enum") != [None]
            and "enum" in node] == []
    assert [where for where, node in schemas if {"type": "object", "nullable": True} in node.get("anyOf", ())] == []
    assert [where for where, node in schemas if "default" in node and node["default"] is None] == []


def test_every_component_is_used():
    text = json.dumps({key: value for key, value in SPEC.items() if key != "components"}) + \
        json.dumps({key: value for key, value in SPEC["components"].items() if key != "schemas"})
    used: set[str] = set()
    pending = set(re.findall(r"#/components/schemas/(\w+)", text))
    while pending:
        name = pending.pop()
        if name not in used:
            used.add(name)
            pending |= set(re.findall(r"#/components/schemas/(\w+)", json.dumps(COMPONENTS[name])))
    assert set(COMPONENTS) - used == set()


def test_a_body_with_variants_lists_each_whole():
    """Each variant of a request body is a component with every field of the body, so that a
    generated model of it has them all."""
    for _, _, operation in OPERATIONS:
        for content in (operation.get("requestBody") or {}).get("content", {}).values():
            body = _component(content["schema"])
            if "oneOf" not in body:
                continue
            variants = [_component(branch) for branch in body["oneOf"]]
            assert set(body) == {"oneOf"}, "no fields beside the variants"
            assert len({frozenset(variant["properties"]) for variant in variants}) == 1
            assert all(variant["type"] == "object" and variant["additionalProperties"] is False
                       for variant in variants)


def test_what_every_operation_may_answer_is_documented():
    for method, path, operation in OPERATIONS:
        responses = operation["responses"]
        unavailable = SPEC["components"]["responses"][responses["503"]["$ref"].rsplit("/", 1)[-1]]
        assert RETRY_AFTER in unavailable["headers"], (method, path)
        if "requestBody" in operation:
            assert {"400", "413", "415", "422"} <= set(responses), (method, path)
        headers = {parameter["name"] for parameter in operation.get("parameters", ()) if parameter["in"] == "header"}
        if IDEMPOTENCY_KEY in headers:
            assert all(IDEMPOTENT_REPLAYED in response["headers"] for status, response in responses.items()
                       if status.startswith("2")), (method, path)
    assert ("post", "/v1/audit/verifications") in {(method, path) for method, path, operation in OPERATIONS
                                                   if any(parameter["name"] == IDEMPOTENCY_KEY
                                                          for parameter in operation.get("parameters", ()))}


def test_a_table_is_created_with_the_rules_and_paytables_on_disk():
    house, player = map(_component, SPEC["components"]["schemas"]["CreateTable"]["oneOf"])
    stems = {path.stem for path in (ROOT / "rules_config").glob("*.yaml")}
    assert set(house["properties"]["rules"]["enum"]) | set(player["properties"]["rules"]["enum"]) == stems
    assert "canberra" in house["properties"]["rules"]["enum"]            # a Canberra table needs a paytable
    assert "british-traditional" in player["properties"]["rules"]["enum"]
    assert set(house["properties"]["paytable"]["enum"]) == {path.stem for path in (ROOT / "paytables").glob("*.yaml")}


def test_the_documented_card_pattern_is_the_cards_the_service_reads():
    pattern = re.compile(CARD_PATTERN)
    alphabet = "A23456789TJQK10SHDCshdcajqkt x"
    for length in (1, 2, 3):
        for token in map("".join, itertools.product(alphabet, repeat=length)):
            try:
                parse_card(token)
                card = True
            except CardError:
                card = False
            assert (pattern.fullmatch(token) is not None) == card, token


@pytest.fixture(scope="module")
def fuzz_world(app, database_url):
    """Two tables for the fuzzer to poke at with real ids as well as random ones: one whose
    terminal has an open physical round at its first decision (decisions and cards reach a
    round), one with a shoe and no round (openings reach the rules and limits)."""
    busy, idle = ("FUZZ-" + uuid.uuid4().hex[:6] for _ in range(2))
    with psycopg.connect(database_url) as conn:
        repo = KeysRepository(conn)
        admin = chained_key(conn, "admin", None, "fuzz")   # an admin's key is a person's
        terminals = {table: repo.create(role="terminal", table_id=table, name="fuzz", created_by="test")[1]
                     for table in (busy, idle)}
    client = app.test_client()
    shoes = {}
    for table_id in (busy, idle):
        ok(Api(flask_sender(client), admin).post("/v1/tables", {"table_id": table_id, "rules": "canberra",
                                                                "paytable": "canberra-standard"}), 201)
        term = Api(flask_sender(client), terminals[table_id])
        shoes[table_id] = ok(term.post(f"/v1/tables/{table_id}/shoes", {"mode": "physical"}), 201)["shoe_id"]
    state = round_at_first_decision(Api(flask_sender(client), terminals[busy]), busy)
    return {"tables": (busy, idle), "terminals": terminals, "round_id": state["round_id"],
            "shoe_id": shoes[busy], "admin": admin}


def test_a_strict_validator_holds_a_round_to_its_schema(app, fuzz_world):
    """A round's state as served validates under OpenAPI 3.0's own rules for null; an object
    where the hand in turn stands, or a value the document does not list, does not."""
    state = app.test_client().get(f"/v1/rounds/{fuzz_world['round_id']}",
                                  headers={"Authorization": f"Bearer {fuzz_world['admin']}"}).get_json()
    validator = OAS30Validator({"$ref": "#/components/schemas/RoundState", "components": SPEC["components"]})
    assert validator.is_valid(state) and state["in_turn"] is not None
    assert validator.is_valid({**state, "in_turn": None, "awaiting": None, "dealer": None, "settlement": None})
    for bad in ({"in_turn": {"anything": "at all"}}, {"dealer": {}}, {"awaiting": "nothing"}, {"shoe_mode": "x"}):
        assert not validator.is_valid({**state, **bad}), bad


# Generated from the committed spec (the test above keeps it equal to the code's); the calls go
# to the app in-process. (schemathesis.pytest.from_fixture does not run under pytest 9.)
schema = schemathesis.openapi.from_path(ROOT / "openapi.yaml")


def put_limits_in_order(body: object) -> None:
    """What the document says in words, JSON Schema having no way to compare two fields: a
    table's limit has its max at least its min (otherwise 422). A valid case is kept valid."""
    limits = body.get("limits") if isinstance(body, dict) else None
    for limit in limits.values() if isinstance(limits, dict) else ():
        if isinstance(limit, dict) and type(limit.get("min")) is int and type(limit.get("max")) is int:
            limit["min"], limit["max"] = sorted((limit["min"], limit["max"]))


@schema.parametrize()
@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.function_scoped_fixture])
def test_the_app_keeps_to_its_spec(case, app, fuzz_world):
    meta = case.meta
    if meta is not None and meta.generation.mode.is_positive:
        put_limits_in_order(case.body)
        # Generated keys repeat across cases with other bodies, which the API refuses (422, as the
        # document says): a state of the server, not a shape of the request. Each case gets its own.
        if case.headers and IDEMPOTENCY_KEY in case.headers:
            case.headers[IDEMPOTENCY_KEY] = f"{case.headers[IDEMPOTENCY_KEY][:200]}-{uuid.uuid4().hex}"
    negative_path = meta is not None and meta.is_negative_at(ParameterLocation.PATH)
    negative_headers = meta is not None and meta.is_negative_at(ParameterLocation.HEADER)
    aim = zlib.crc32(repr(case.body).encode()) % 4
    if case.path_parameters and not negative_path and aim < 2:
        # Half the time aim at the real resources, so requests get past the 404s.
        real = {"table_id": fuzz_world["tables"][aim], "round_id": fuzz_world["round_id"],
                "shoe_id": fuzz_world["shoe_id"]}
        for name in set(case.path_parameters) & set(real):
            case.path_parameters[name] = real[name]
    table_id = (case.path_parameters or {}).get("table_id")
    busy = fuzz_world["tables"][0]
    terminal = fuzz_world["terminals"].get(table_id, fuzz_world["terminals"][busy])
    secret = terminal if (case.method.upper(), case.path) in TERMINAL_ONLY or table_id in fuzz_world["terminals"] \
        else fuzz_world["admin"]
    # A case whose headers were made invalid on purpose keeps them: a valid key would mask them.
    headers = {} if negative_headers else {"Authorization": f"Bearer {secret}"}
    # The app answers in-process; checks that send a request of their own (a probe without the
    # key) reach it through the schema's app, as a schema loaded from the app would.
    case.operation.schema.app = app
    case.call_and_validate(headers=headers, checks=EVERY_CHECK, app=app)
