# tirage — the two commands that matter: `make block GAME=coq` and `make test`.
# Needs only a Rust toolchain (cargo); every crate comes from crates.io through Cargo.lock.

GAME    ?= coq
BLOCK   ?= 1
SEED    ?=
SEED_FILE ?=
FORCE   ?=
THREADS ?= 0
CARGO   ?= cargo
BIN     := target/release/tirage
BLOCKDIR = output/$(GAME)/block-$(shell printf %03d $(BLOCK))

.PHONY: block verify test bench check build clean

build:
	$(CARGO) build --release --locked

## make block GAME=coq [BLOCK=1] [SEED_FILE=f | SEED=<64 hex>] [FORCE=1] [THREADS=n]: build, then write output/<game>/block-<NNN>/
block: build
	@$(BIN) generate game_specs/$(GAME).toml --block $(BLOCK) --threads $(THREADS) $(if $(SEED),--seed $(SEED)) $(if $(SEED_FILE),--seed-file $(SEED_FILE)) $(if $(FORCE),--force) --out $(BLOCKDIR)

## make verify GAME=coq [BLOCK=1]: re-check that block against game_specs/<game>.toml
verify: build
	$(BIN) verify $(BLOCKDIR) --spec game_specs/$(GAME).toml --threads $(THREADS)

## make test: every unit, property and integration test (small specs under tests/)
test:
	$(CARGO) test --locked

## make bench: criterion benchmarks (several minutes): the pipeline with a full-size coq
## block, and poker synthesis / evaluation next to rs_poker, with poker's dead-end rate
bench:
	$(CARGO) bench --locked --bench pipeline
	$(CARGO) bench --locked --bench poker

## make check: formatting, lints, and every spec under game_specs/
check: build
	$(CARGO) fmt --check
	$(CARGO) clippy --locked --all-targets -- -D warnings
	for s in game_specs/*.toml; do $(BIN) check $$s >/dev/null || exit 1; echo "$$s: OK"; done

clean:
	$(CARGO) clean
