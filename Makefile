# Top-level Makefile: the C library and its installation (Rust builds stay with cargo).
#
#   make                     build target/release/libxcover.a
#   make install PREFIX=/usr/local [DESTDIR=...]
#                            install libxcover.a, xcover.h (+ xcover_static_asserts.h) and
#                            xcover.pc; then: cc app.c $(pkg-config --cflags --libs xcover)
#   make uninstall PREFIX=...
#   make test-c              build and run the C examples (c-examples/Makefile)
#   make mcu                 build target/<triple>/release/libxcover.a for Cortex-M4F
#                            (thumbv7em-none-eabihf) and Cortex-M3 (thumbv7m-none-eabi) with
#                            Debian's rustc/cargo and rust-src (-Zbuild-std=core); size-tuned:
#                            MCU_OPT=z (or s, 3), panics abort at once (no panic machinery),
#                            no machine outliner (MCU_RUSTFLAGS). It first checks that
#                            MCU_RUSTC takes those flags (Rust 1.92 or newer; `make mcu-rust`).
#                            .ci/mcu runs the C examples on both under QEMU.
#   make web                 build web/dist/: the browser page (web/www), the examples and
#                            xcover.wasm (web/, its own workspace) for wasm32-unknown-unknown
#                            with Debian's rustc and rust-src (-Zbuild-std=core,alloc),
#                            linked by Debian's wasm-ld-19 (lld-19); fails over the size
#                            budget WEB_WASM_BUDGET. Serve it: python3 -m http.server -d web/dist

PREFIX     ?= /usr/local
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PCDIR      ?= $(LIBDIR)/pkgconfig
CARGO      ?= cargo
TARGET_DIR ?= $(or $(CARGO_TARGET_DIR),target)
VERSION    := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
# The crate that builds libxcover.a: a workspace of its own, with its own profile (panics
# abort, LTO), so that no feature of another package reaches the library. Its archive goes
# to this repository's target directory.
STATICLIB  := --manifest-path ffi/staticlib/Cargo.toml --target-dir $(TARGET_DIR)

# Debian's toolchain (rustc-web, cargo-web, rust-web-src): rustup cannot add these targets
# here, and -Zbuild-std needs the library source that rust-web-src installs.
MCU_TARGETS ?= thumbv7em-none-eabihf thumbv7m-none-eabi
MCU_CARGO   ?= /usr/bin/cargo
MCU_RUSTC   ?= /usr/bin/rustc
MCU_OPT     ?= z
# LLVM's machine outliner (on for Thumb-2 and RISC-V at opt-level z) is left off: with it
# the search runs more instructions per mem in no less text (docs/PERFORMANCE.md).
MCU_RUSTFLAGS ?= -Cllvm-args=-enable-machine-outliner=never
# `-Cpanic=immediate-abort` came with Rust 1.92: Debian bookworm's first rustc-web (1.85)
# refuses it; its security suite has 1.96. `mcu-rust` asks MCU_RUSTC before building.
MCU_MIN_RUST := 1.92

# The browser's module: opt-level s keeps both engines within the budget (opt-level 3 is
# about 267 KB); docs/PERFORMANCE.md has its speed against the command's.
WEB_TARGET_DIR  ?= $(TARGET_DIR)/web
WEB_LINKER      ?= wasm-ld-19
WEB_OPT         ?= s
WEB_WASM_BUDGET ?= 196608
WEB_WASM        := $(WEB_TARGET_DIR)/wasm32-unknown-unknown/release/xcover_web.wasm

.PHONY: all lib install uninstall test-c mcu mcu-rust web

all: lib

lib:
	$(CARGO) build --release $(STATICLIB)

install: lib
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PCDIR)
	install -m 644 $(TARGET_DIR)/release/libxcover.a $(DESTDIR)$(LIBDIR)/libxcover.a
	install -m 644 include/xcover.h include/xcover_static_asserts.h $(DESTDIR)$(INCLUDEDIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
	    xcover.pc.in > $(DESTDIR)$(PCDIR)/xcover.pc

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libxcover.a $(DESTDIR)$(INCLUDEDIR)/xcover.h \
	      $(DESTDIR)$(INCLUDEDIR)/xcover_static_asserts.h $(DESTDIR)$(PCDIR)/xcover.pc

test-c:
	$(MAKE) -C c-examples test

mcu: mcu-rust
	for target in $(MCU_TARGETS); do \
	    RUSTC=$(MCU_RUSTC) RUSTC_BOOTSTRAP=1 CARGO_PROFILE_RELEASE_OPT_LEVEL=$(MCU_OPT) \
	    RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort $(MCU_RUSTFLAGS)" \
	    $(MCU_CARGO) build --release $(STATICLIB) --target $$target -Zbuild-std=core || exit 1; \
	done

# Whether MCU_RUSTC takes the flags `mcu` gives it (a rustc without them fails deep in the
# build with a message about the flag alone).
mcu-rust:
	@if ! RUSTC_BOOTSTRAP=1 $(MCU_RUSTC) -Zunstable-options -Cpanic=immediate-abort \
	    --crate-type lib --crate-name probe --print cfg - </dev/null >/dev/null 2>&1; then \
	  v=$$($(MCU_RUSTC) --version 2>/dev/null || echo "not found"); \
	  echo "make $@: $(MCU_RUSTC) ($$v) does not take -Cpanic=immediate-abort:" \
	    "Rust $(MCU_MIN_RUST) or newer is needed. On Debian bookworm:" \
	    "apt-get update && apt-get install rustc-web cargo-web rust-web-src" \
	    "(1.96 from bookworm-security); or MCU_RUSTC=... MCU_CARGO=... of a newer toolchain" \
	    "with rust-src." >&2; \
	  exit 1; \
	fi

web: mcu-rust
	RUSTC=$(MCU_RUSTC) RUSTC_BOOTSTRAP=1 CARGO_PROFILE_RELEASE_OPT_LEVEL=$(WEB_OPT) \
	RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Clinker=$(WEB_LINKER) -Clinker-flavor=wasm-ld" \
	$(MCU_CARGO) build --manifest-path web/Cargo.toml --locked --release \
	    --target wasm32-unknown-unknown -Zbuild-std=core,alloc --target-dir $(WEB_TARGET_DIR)
	rm -rf web/dist
	mkdir -p web/dist/examples
	cp web/www/* web/dist/
	cp $(WEB_WASM) web/dist/xcover.wasm
	cp examples/*.dlx examples/grid.txt examples/grid.mask web/dist/examples/
	cd web/dist/examples && ls *.dlx | python3 -c 'import json,sys; print(json.dumps([l.strip() for l in sys.stdin]))' > index.json
	@size=$$(wc -c < web/dist/xcover.wasm); \
	if [ "$$size" -gt $(WEB_WASM_BUDGET) ]; then \
	    echo "web/dist/xcover.wasm: $$size bytes, over the budget of $(WEB_WASM_BUDGET)"; exit 1; \
	fi; \
	echo "web/dist/xcover.wasm: $$size bytes (budget $(WEB_WASM_BUDGET))"
