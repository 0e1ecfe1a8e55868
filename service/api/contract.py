"""The OpenAPI document written for a vendor's client generator: request bodies as whole variants,
"a thing or null" as a strict choice, shared shapes as named components, and the statuses and
headers every operation shares (apispec's marshmallow plugin, through its hooks)."""
from __future__ import annotations

from typing import Any

import marshmallow as ma
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from .docs import CONTENT_DISPOSITION, IDEMPOTENCY_KEY, IDEMPOTENT_REPLAYED, IF_MATCH, RETRY_AFTER
from .schemas.variants import COMPONENT, Catalog, or_null

# Words about a value, kept beside a property's shape when the shape moves into a component.
_WORDS = ("description", "deprecated", "readOnly", "writeOnly", "example")
# apispec's "a $ref or null": its object branch takes any object at all.
_ANY_OBJECT_OR_NULL = {"type": "object", "nullable": True}

# Headers a response may carry, as components (registered where referenced).
HEADERS = {
    IDEMPOTENT_REPLAYED: {
        "description": "sent (`true`) when this is the response first given to the request's "
                       "Idempotency-Key, given again: nothing was done this time",
        "schema": {"type": "string", "enum": ["true"]}},
    RETRY_AFTER: {
        "description": "seconds to wait before sending the request again",
        "schema": {"type": "integer", "minimum": 0}},
    CONTENT_DISPOSITION: {
        "description": "`attachment; filename=\"...\"`: the name to save the file as",
        "schema": {"type": "string"}},
}
# The statuses every operation may answer besides its own, by when they apply.
_UNAVAILABLE = "SERVICE_UNAVAILABLE"
_BODY_REFUSALS = {400: "BAD_REQUEST", 413: "REQUEST_ENTITY_TOO_LARGE", 415: "UNSUPPORTED_MEDIA_TYPE"}
_CHECKED_HEADERS = {IDEMPOTENCY_KEY, IF_MATCH}


def register_shared(spec: APISpec, error_schema: str) -> None:
    """The responses and headers operations share, registered to appear where referenced; the
    unused pagination schema flask-smorest registers for a header no operation sends is left out."""
    for name, header in HEADERS.items():
        spec.components.header(name, header, lazy=True)
    error = spec.components.get_ref("schema", error_schema)
    spec.components.response(_UNAVAILABLE, {
        "description": "database_unavailable: the database could not serve the request. Send it again after "
                       "Retry-After seconds, with the same Idempotency-Key, so that it is done once whatever "
                       "became of this one",
        "headers": {RETRY_AFTER: RETRY_AFTER},
        "content": {"application/json": {"schema": error}}}, lazy=True)
    spec.components.schemas.pop("PaginationMetadata", None)


class ContractPlugin(MarshmallowPlugin):
    """apispec's marshmallow plugin, writing the document as generators read it:

    - a request schema with a classmethod `openapi_variants(catalog) -> [Variant, ...]` is a
      `oneOf` of those variants, each a component with every field of the body;
    - a field with `metadata={"component": Name}` is that named component (one model in a client,
      wherever the field stands), the component being the field's shape;
    - a nullable reference, enum or component is `oneOf: [it, null]` (variants.or_null);
    - an optional request field has no `default: null` (its absence is not a value);
    - every operation lists 503 (with Retry-After), one with a body its 400, 413 and 415, one
      reading Idempotency-Key or If-Match its 422, and the successes of one honouring
      Idempotency-Key the Idempotent-Replayed header."""

    def __init__(self, catalog: Catalog, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.catalog = catalog

    def init_spec(self, spec: APISpec) -> None:
        super().init_spec(spec)
        assert self.converter is not None   # made by init_spec
        self.converter.add_attribute_function(_written_for_generators)

    def schema_helper(self, name, definition, schema=None, **kwargs):
        json_schema = super().schema_helper(name, definition, schema=schema, **kwargs)
        variants = getattr(schema, "openapi_variants", None)
        if json_schema is None or variants is None:
            return json_schema
        branches = []
        for variant in variants(self.catalog):
            self.spec.components.schema(variant.name, variant.written_out(json_schema))
            branches.append(self.spec.components.get_ref("schema", variant.name))
        return {"oneOf": branches}

    def operation_helper(self, path=None, operations=None, **kwargs):
        super().operation_helper(path=path, operations=operations, **kwargs)
        for operation in (operations or {}).values():
            responses = operation.setdefault("responses", {})
            responses.setdefault(503, _UNAVAILABLE)
            if "requestBody" in operation:
                for status, response in _BODY_REFUSALS.items():
                    responses.setdefault(status, response)
            headers = {parameter.get("name") for parameter in operation.get("parameters", ())
                       if isinstance(parameter, dict) and parameter.get("in") == "header"}
            if headers & _CHECKED_HEADERS:
                responses.setdefault(422, "UNPROCESSABLE_ENTITY")
            if IDEMPOTENCY_KEY in headers:
                for status, response in responses.items():
                    if str(status).startswith("2") and isinstance(response, dict):
                        response.setdefault("headers", {})[IDEMPOTENT_REPLAYED] = IDEMPOTENT_REPLAYED


def _written_for_generators(self, field: ma.fields.Field, ret: dict, **_: Any) -> dict:
    """An apispec attribute function (bound to its converter): rewrites the property `ret` that
    the built-in functions wrote for `field`, in place."""
    if "default" in ret and ret["default"] is None:
        del ret["default"]
    words = {key: ret.pop(key) for key in _WORDS if key in ret}
    nullable = bool(ret.pop("nullable", False))
    shape = dict(ret)
    if _ANY_OBJECT_OR_NULL in shape.get("anyOf", ()):
        shape = next(branch for branch in shape.pop("anyOf") if branch != _ANY_OBJECT_OR_NULL)
        nullable = True
    if "enum" in shape and None in shape["enum"]:
        shape["enum"] = [value for value in shape["enum"] if value is not None]
    component = field.metadata.get(COMPONENT)
    if component is not None:
        shape = _as_component(self.spec, component, shape)
    ret.clear()
    if not shape:   # any value at all, null among them
        ret.update(words)
    elif nullable and (component is not None or "$ref" in shape or "enum" in shape or "type" not in shape):
        ret.update(words, **or_null(shape))
    elif "$ref" in shape and words:
        ret.update(words, allOf=[shape])
    else:
        ret.update(words, **shape, **({"nullable": True} if nullable else {}))
    return {}


def _as_component(spec: APISpec, name: str, shape: dict) -> dict:
    """A reference to the component `name`, registered with `shape` where first met; every
    other field naming it must have the same shape (one name, one meaning)."""
    registered = spec.components.schemas.get(name)
    if registered is None:
        spec.components.schema(name, shape)
    elif registered != shape:
        raise ValueError(f"fields named as component {name} differ: {registered} and {shape}")
    return spec.components.get_ref("schema", name)
