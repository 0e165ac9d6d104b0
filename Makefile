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
#                            no machine outliner (MCU_RUSTFLAGS).
#                            .ci/mcu runs the C examples on both under QEMU.

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

.PHONY: all lib install uninstall test-c mcu

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

mcu:
	for target in $(MCU_TARGETS); do \
	    RUSTC=$(MCU_RUSTC) RUSTC_BOOTSTRAP=1 CARGO_PROFILE_RELEASE_OPT_LEVEL=$(MCU_OPT) \
	    RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort $(MCU_RUSTFLAGS)" \
	    $(MCU_CARGO) build --release $(STATICLIB) --target $$target -Zbuild-std=core || exit 1; \
	done
