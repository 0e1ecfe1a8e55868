# The project's commands. `make run` brings the whole stack up; `make test` runs every test.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
PYTHON ?= python3

.PHONY: install services chromium test run demo bench openapi settings-table clean

# Bytecode is written here, once per change, because the service's processes may run where
# Python is told not to write it (then every start would compile every module again).
install: $(VENV)/.installed $(VENV)/.analysis-compiled
	@$(PY) -m compileall -q service >/dev/null

# numba compiles the house-edge analysis on its first use (about 40 s in all on two cores), which
# an operator's first draft or approval would otherwise wait for inside a web request, against
# gunicorn's 30 s timeout. Compiled here once per change of its sources, cached beside them.
# Each step says what it does and how long it takes first, so a first start is never silent.
$(VENV)/.analysis-compiled: $(VENV)/.installed $(wildcard service/analysis/*.py service/analysis/exact/*.py)
	@echo "Preparing the house-edge analysis (compiled once; about 2 minutes on two cores):"
	@echo "  1/3 the exact analysis of canberra-standard ..."
	@$(VENV)/bin/pontoon analyse --rules canberra --paytable canberra-standard --no-cache >/dev/null
	@echo "  2/3 the exact analysis of blackjack ..."
	@$(VENV)/bin/pontoon analyse --rules blackjack-enhc --paytable blackjack --no-cache >/dev/null
	@echo "  3/3 the simulated house edge ..."
	@$(VENV)/bin/pontoon house-edge --rules canberra --paytable canberra-standard --precision 0.05 --quiet >/dev/null
	@echo "  the analysis is ready"
	@touch $@

$(VENV)/.installed: pyproject.toml
	@echo "Installing the service into $(VENV) (its packages and the tests'; a minute or two on a first start):"
	@bash ops/ensure-python.sh $(PYTHON)
	@$(PYTHON) -m venv $(VENV)
	@echo "  1/2 pip itself ..."
	@$(VENV)/bin/pip install -q -U pip setuptools wheel
	@echo "  2/2 the service's packages ..."
	@$(VENV)/bin/pip install -q -e '.[test]'
	@echo "  installed"
	@touch $@

services:
	bash ops/ensure-services.sh

# Lint, types and the layers first: they take seconds, and a failure there needs no database to explain.
test: install services chromium
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache
	$(VENV)/bin/pytest -q -p no:cacheprovider

# The console's browser tests drive Debian's chromium (Playwright's own browser download is not
# reachable from a casino's closed network). Where it cannot be installed they are skipped, saying so.
chromium:
	@[ -x /usr/bin/chromium ] || { as_root=$$([ "$$(id -u)" = 0 ] || echo sudo -n); \
	  { $$as_root apt-get update -qq && $$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
	  || echo "chromium could not be installed: the browser tests will be skipped"; }

# The stack stops, with itself, the services it had to start (listed in the file named here,
# one per stack), unless something else has come to use them.
run: install
	@mkdir -p run
	started=run/started-services-$${PORT:-8000}; rm -f $$started; \
	  PONTOON_STARTED_SERVICES=$$started bash ops/ensure-services.sh && PONTOON_STARTED_SERVICES=$$started bash ops/stack.sh

demo: install services
	bash ops/demo.sh

bench: install services
	bash ops/bench.sh

# Written aside and moved into place: a failed export leaves the document as it was.
openapi: install
	$(PY) -m service.api.openapi_export > openapi.yaml.new && mv openapi.yaml.new openapi.yaml || { rm -f openapi.yaml.new; exit 1; }

# The README's table of settings, from service/config.py (a test fails when it has drifted).
settings-table: install
	$(PY) ops/settings_table.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
