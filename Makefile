# tirage — the two commands that matter: `make block GAME=coq` and `make test`.
# Needs only a Rust toolchain (cargo); every crate comes from crates.io through Cargo.lock.

GAME    ?= coq
# The spec: the seed spec by default; an operator's own copy pinning its key ([signing]).
SPEC    ?= game_specs/$(GAME).toml
BLOCK   ?= 1
SEED    ?=
SEED_FILE ?=
FORCE   ?=
THREADS ?= 0
CARGO   ?= cargo
BIN     := target/release/tirage
BLOCKDIR = output/$(GAME)/block-$(shell printf %03d $(BLOCK))
# The keys of a developer's machine, made on first use and kept (directory mode 0700): the
# operator's signing key pair and each game's validation key. A production operator keeps
# them apart, with their custodians (README, "Keys and recipients").
KEYS    ?= output/keys
OPKEY   := $(KEYS)/operator
VKEY     = $(KEYS)/$(GAME).validation-key

PREFIX  ?= $(HOME)/.cargo

.PHONY: block verify keys test limits bench speed check build clean install

build:
	$(CARGO) build --release --locked

## make block GAME=coq [BLOCK=1] [SEED_FILE=f | SEED=<64 hex, tests only>] [SPEC=f] [FORCE=1] [THREADS=n]:
## build, then write output/<game>/block-<NNN>/, signed with output/keys/operator.key and its
## codes made with output/keys/<game>.validation-key (both made on first use)
block: build keys
	@TIRAGE_FORCE_OPTION=FORCE=1 $(BIN) generate $(SPEC) --block $(BLOCK) --threads $(THREADS) --sign $(OPKEY).key --validation-key $(VKEY) $(if $(SEED),--insecure-seed --seed $(SEED)) $(if $(SEED_FILE),--seed-file $(SEED_FILE)) $(if $(FORCE),--force) --out $(BLOCKDIR)

## make verify GAME=coq [BLOCK=1] [SPEC=f] [SEED_FILE=f]: re-check that block against
## game_specs/<game>.toml (or SPEC, which may pin the operator's key: [signing]) and
## output/keys/operator.pub; and replay it byte for byte when its seed file (SEED_FILE, or
## the block-NNN.seed make block left beside it) and the validation key are there
REPLAY_SEED = $(or $(SEED_FILE),$(wildcard $(BLOCKDIR).seed))
verify: build
	$(BIN) verify $(BLOCKDIR) --spec $(SPEC) --signer $(OPKEY).pub --threads $(THREADS) $(if $(and $(REPLAY_SEED),$(wildcard $(VKEY))),--seed-file $(REPLAY_SEED) --validation-key $(VKEY))

## make keys [GAME=coq]: the operator's key pair and the game's validation key, if missing
keys: build
	@mkdir -p $(KEYS) && chmod 700 $(KEYS)
	@[ -f $(OPKEY).key ] || $(BIN) keygen --no-password --out $(OPKEY)
	@[ -f $(VKEY) ] || $(BIN) seed new --out $(VKEY)

## make test: every unit, property and integration test (small specs under tests/)
test:
	$(CARGO) test --locked

## make limits: the largest block check accepts (5 000 000 tickets), generated, verified and
## replayed within 512 MiB of address space (a release build of the tests; a few minutes)
limits:
	$(CARGO) test --release --locked --test crash -- --ignored

## make bench: criterion benchmarks (several minutes): the pipeline stage by stage (allocation,
## faces, validation codes, claims, CSV, print file, hashing, encryption, writes) and with a
## full-size coq block, poker synthesis / evaluation next to rs_poker with poker's dead-end
## rate, and every play style's face work per play area (every spec and example game)
bench:
	$(CARGO) bench --locked --bench pipeline
	$(CARGO) bench --locked --bench poker
	$(CARGO) bench --locked --bench styles

## make speed [GAME=coq] [SPEC=f]: one full block, whole process, against openssl and age,
## with each protection on and off (scripts/speed.sh; docs/SPEED.md; every core, minutes)
speed:
	scripts/speed.sh $(SPEC)

## make check: formatting, lints, and every spec under game_specs/ and its examples/
check: build
	$(CARGO) fmt --check
	$(CARGO) clippy --locked --all-targets -- -D warnings
	for s in game_specs/*.toml game_specs/examples/*.toml; do $(BIN) check $$s >/dev/null || exit 1; echo "$$s: OK"; done

## make install [PREFIX=dir]: build in release mode and put `tirage` in $(PREFIX)/bin
## (default ~/.cargo/bin, on PATH with a rustup install)
install:
	$(CARGO) install --locked --path . --root $(PREFIX)
	@echo "installed $(PREFIX)/bin/tirage"

clean:
	$(CARGO) clean
