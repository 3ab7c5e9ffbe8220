# feed: two commands do all the set-up on a fresh Debian 12 machine.
#   make demo   install what is missing, build release, browse the built-in demo feed
#   make test   install what is missing, run the whole test suite
SHELL := /bin/bash
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEBS := libavformat-dev libavcodec-dev libswscale-dev libavutil-dev libswresample-dev \
        libsqlite3-dev zlib1g-dev libfftw3-dev pkg-config ffmpeg jq time curl python3-venv \
        espeak-ng sox postgresql libgumbo-dev
FEED := .build/release/feed

.PHONY: deps build demo test sanitize fuzz bench clean

deps:
	@missing=$$(for p in $(DEBS); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

build: deps
	swift build -c release

demo: build
	$(FEED) list
	$(FEED) comments --count 3

# The PostgreSQL catalog and queue tests need a server: scripts/with-postgres.sh makes a
# throwaway cluster in a temporary folder (initdb, pg_ctl on a Unix socket) and stops it after.
PG := FEED_REQUIRE_POSTGRES=1 scripts/with-postgres.sh

test: deps
	swift build --build-tests
	$(PG) swift test --skip-build

# Whole suite under ASan, LeakSanitizer on (toolchain leaks listed in Fuzz/lsan.supp); suites
# matching TSAN_FILTER (the concurrency ones: PlayerWindow's tasks, the stacker's decoder
# threads and FrameQueue, concurrent roll opens, FeedFile's FIFO writer) under TSan;
# TSAN_FILTER= skips TSan. Own scratch paths keep .build untouched.
TSAN_FILTER ?= JobStoreTests|PostgresCatalogTests|WorkerCommandTests|PlayerWindow|PlayController|FrameQueueTests|StackerTests|StackerFailureTests|StackJobTests|RollTests|RollAddTests|SHA256|RecordingCatalogTests|FeedFileTests|ServeCommandTests|ServeJobsTests|ServeUploadTests|UploadStoreTests|ServeLimitsTests|HLSCommandTests|RollHLSTests|AudioSyncTests|CrossCorrelationTests
sanitize: deps
	swift build --build-tests --sanitize=address --scratch-path .build-asan
	LSAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/lsan.supp:print_suppressions=0 \
	  $(PG) swift test --skip-build --sanitize=address --scratch-path .build-asan
	@if [ -n "$(TSAN_FILTER)" ]; then \
	  swift build --build-tests --sanitize=thread --scratch-path .build-tsan && \
	  $(PG) swift test --skip-build --sanitize=thread --scratch-path .build-tsan --filter '$(TSAN_FILTER)'; \
	else echo "sanitize: TSAN_FILTER is empty, ThreadSanitizer skipped"; fi

# libFuzzer targets (swiftc -sanitize=fuzzer,address): feed-loader-fuzz, then media-reader-fuzz,
# FUZZ_SECONDS each; fails when either finds something. Knobs: see Fuzz/run.sh and Fuzz/README.md.
FUZZ_SECONDS ?= 60
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/run.sh

bench: build
	@for b in bench/*.sh; do echo "== $$b"; bash $$b || exit 1; done

clean:
	rm -rf .build .build-asan .build-tsan .build-fuzz
