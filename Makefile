# Top-level Makefile: the C library and its installation (Rust builds stay with cargo).
#
#   make                     build target/release/libxcover.a
#   make install PREFIX=/usr/local [DESTDIR=...]
#                            install libxcover.a, xcover.h (+ xcover_static_asserts.h) and
#                            xcover.pc; then: cc app.c $(pkg-config --cflags --libs xcover)
#   make uninstall PREFIX=...
#   make test-c              build and run the C examples (c-examples/Makefile)

PREFIX     ?= /usr/local
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PCDIR      ?= $(LIBDIR)/pkgconfig
CARGO      ?= cargo
TARGET_DIR ?= $(or $(CARGO_TARGET_DIR),target)
VERSION    := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)

.PHONY: all lib install uninstall test-c

all: lib

lib:
	$(CARGO) build -p xcover-ffi --release

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
