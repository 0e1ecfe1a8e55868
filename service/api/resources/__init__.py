"""flask-smorest blueprints, one module per resource."""
