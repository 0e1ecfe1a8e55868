"""The dealer-terminal REST service: app factory, resources, schemas, errors, auth."""
