"""PostgreSQL access: the connection pool, migrations, repositories and the unit of work."""
