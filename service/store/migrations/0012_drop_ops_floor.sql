-- The benchmark floor leaves the product: its table (from 0005) is dropped with its sequence. The
-- benchmark makes a table of its own in the database it runs against (bench/floor_app.py). The
-- index 0005 also made, on rounds awaiting settlement, is the product's and stays.

DROP TABLE IF EXISTS ops_floor;
