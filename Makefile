# sdbench - bare-metal SD card benchmark for the 32-bit Raspberry Pi boards.
#
#   make            build/kernel.img (32-bit, + .elf, .map, .lst), build/kernel8.img (AArch64,
#                   Pi 3/4/Zero 2 with arm_64bit=1), build/kernel_2712.img (AArch64, Pi 5 /
#                   CM5 / Pi 500: the same sources tuned for the Cortex-A76) and host tools
#   make run        build, make an SD image, boot it under QEMU (MACHINE=raspi2b|raspi0|raspi1ap|raspi3b|raspi3ap|raspi4b;
#                   KERNEL=build/kernel8.img the AArch64 image on raspi3b/raspi3ap/raspi4b)
#   make test       all tests: the bounded fuzz run, host unit tests, simulator suite
#                   (with the fault soak), QEMU integration tests
#                   under the system QEMU, then the QEMU tests again under QEMU 10
#                   (tools/fetch-qemu10.sh; QEMU10=no skips that pass)
#   make test-qemu  only the QEMU tests, under SDB_QEMU (system, 10 or a directory)
#   make image      build/sdbench.img, a whole SD card to flash (FIRMWARE=/path/to/bootfs
#                   adds the Raspberry Pi boot firmware); make run-image boots it under QEMU
#   make install BOOT=/path/to/mounted/bootfs   add sdbench to a card that boots Linux;
#                   make uninstall BOOT=... undoes it
#   make test-hw PORT=/dev/ttyUSB0   the hardware checks against a Pi on a serial port
#   make fuzz       the bounded fuzz run of every parser (part of make test;
#                   FUZZ_SECONDS per target, default 20); make fuzz-long runs longer
#   make soak-long  the quick suite and the command queue workload under random injected
#                   faults, more seeds than make test
#   make fixtures   regenerate the QEMU console logs in tests/data/
#   make readme-sample  the README's sample output from tests/data/qemu-raspi2b-run.log
#   make screenshot regenerate docs/report-screenshot.png (chromium)
#   make screen-png the HDMI screen under QEMU into build/screen.png
#                   (DOC=docs/screen.png rewrites docs/screen.md's picture)
#   make bench-sim  accuracy of the split against the simulator, full-suite durations
#   make bench-silicon the generated pairs under each controller behaviour docs/silicon.md
#                   lists (bench-sim part 5): no diagnosis, confidently wrong, per variant
#   make bench-au   the erase-block detector and the open-AU step on 200 generated cards
#   make bench-queue the card / bus / host shares of the command queue's depths against
#                   the simulator's truth on generated pairs with a queue (N=<pairs>, default 60),
#                   and the queue checks' verdicts against each pair's drawn failures
#   make bench-confirm  each verdict's counterfactual checks (half clock, CPU delay) on
#                   simulated pairs: contradictions of right and of broken splits
#   make bench-mutations  the split and its checks broken on purpose (sim/mutations.py):
#                   what each mutation makes test_bench_accuracy and the others miss
#   make bench-qemu instructions per read request under QEMU -icount (hostcost table;
#                   DOC=docs/request-cost.md rewrites the table there)
#   make bench-linux the same requests through Debian's arm64 kernel under QEMU, next to
#                   sdbench's (qemu/linux/; DOC=docs/linux-cost.md rewrites the table there)
#   make bench-linux-commands  the SD commands of sdbench and of Linux side by side (QEMU's
#                   trace; DOC=docs/linux-commands.md rewrites the tables there)
#   make sdblinux   build/sdblinux/sdblinux-{arm64,armhf}: the companion for Raspberry Pi OS
#
# Layout of the sources:
#   boot/ drivers/*.c          target only (start-up, UART, timers, CPU); drivers/gpio.c,
#                              mailbox.c and led.c also on the simulator's models
#   platform/                  board descriptions and the slot builder (target and simulator)
#   lib/ drivers/sd drivers/sdhci drivers/sdhost drivers/dma bench/   portable: built for the target and the host
#   sim/                       host only: the register-level simulator (controllers, card, clock),
#                              the engine of build/host/sdbsim and of the accuracy checks
#   harness/                   host only: the simulated board built from platform/'s tables, and
#                              the test set-ups (the one place the models meet the firmware's code)
#   tests/unit, tests/sim/test_*.c   host test programs (one binary per file)
#   tools/                     host tools for users

CROSS    ?= arm-none-eabi-
TCC      := $(CROSS)gcc
TOBJCOPY := $(CROSS)objcopy
TOBJDUMP := $(CROSS)objdump
# The AArch64 build (kernel8.img): Debian's Linux-targeted cross compiler
# used freestanding, with picolibc's headers only (string.h, errno.h: the
# same errno values as newlib's) and the project's own small libc.
CROSS64  ?= aarch64-linux-gnu-
TCC64    := $(CROSS64)gcc
TOBJCOPY64 := $(CROSS64)objcopy
TOBJDUMP64 := $(CROSS64)objdump
PICOLIBC64_INC ?= /usr/lib/picolibc/aarch64-linux-gnu/include
HCC      ?= gcc
PYTHON   ?= /usr/bin/python3
MACHINE  ?= raspi2b

B  := build
BT := $(B)/target
BH := $(B)/host

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wno-unused-parameter
# ARMv6 code with software floating point runs on every 32-bit Pi (ARM1176,
# Cortex-A7/A53/A72 in AArch32) without touching the VFP state.
TCFLAGS := -mcpu=arm1176jzf-s -marm -mfloat-abi=soft -O2 -g -std=gnu11 \
           -ffreestanding -fno-common -ffunction-sections -fdata-sections \
           -nostdlib -D__LINUX_ERRNO_EXTENSIONS__ $(WARN) -I.
TLDFLAGS := -T linker/kernel.ld -nostdlib -nostartfiles -Wl,--gc-sections \
            -Wl,-Map=$(B)/kernel.map -Wl,--no-warn-rwx-segments
TLIBS := -lgcc

# Cortex-A53 and later. -mstrict-align: until the MMU is on, every access
# is Device memory, where an unaligned access faults; so boot/, drivers/*.c
# and lib/, which run before it, never make one. The SD stack and bench/
# run only with the MMU on (normal memory allows unaligned accesses): there
# the compiler may merge byte accesses (the PIO path's unaligned buffers).
# -mcmodel=small (the default) keeps the image within 4 GiB of its link
# address.
TALIGN64 := -mstrict-align
TCFLAGS64 = -march=armv8-a $(TALIGN64) -O2 -g -std=gnu11 \
             -ffreestanding -fno-common -ffunction-sections -fdata-sections \
             -fno-pic -fno-pie -fno-stack-protector -fno-asynchronous-unwind-tables \
             -nostdlib -nostdinc -isystem $(shell $(TCC64) -print-file-name=include 2>/dev/null) \
             -isystem $(PICOLIBC64_INC) -D__LINUX_ERRNO_EXTENSIONS__ $(WARN) -I.
TLDFLAGS64 := -T linker/kernel8.ld -nostdlib -nostartfiles -static -no-pie -Wl,--gc-sections \
              -Wl,-Map=$(B)/kernel8.map -Wl,--build-id=none -Wl,--no-warn-rwx-segments
HCFLAGS := -O1 -g -std=gnu11 -DSDB_HOST $(WARN) -I. -fno-common \
           -fsanitize=address,undefined -fno-omit-frame-pointer
HLDFLAGS := -fsanitize=address,undefined
HLIBS := -lm

# platform/: the board descriptions and the slot builder run on the
# simulator too; what reaches the board's GPIO or mailbox is target only,
# the simulator's description host only.
PLATFORM_TARGET_ONLY := platform/board.c platform/board_report.c \
                        platform/slot_gpio.c
PLATFORM_SRCS := $(filter-out $(PLATFORM_TARGET_ONLY),$(wildcard platform/*.c))
# drivers/*.c are target only but for these: the GPIO and mailbox drivers
# and the LED on top of them run on the simulator's GPIO and mailbox models
# too (sim/sim_gpio.c, sim/sim_mbox.c).
DRIVERS_PORTABLE := drivers/gpio.c drivers/mailbox.c drivers/led.c
PORTABLE_SRCS := $(wildcard lib/*.c drivers/sd/*.c drivers/sdhci/*.c drivers/sdhost/*.c drivers/dma/*.c bench/*.c bench/*/*.c) \
                 $(PLATFORM_SRCS) $(DRIVERS_PORTABLE)
TARGET_SRCS   := $(filter-out $(DRIVERS_PORTABLE),$(wildcard boot/*.S boot/*.c drivers/*.c lib/freestanding/*.c)) \
                 $(PLATFORM_TARGET_ONLY) $(PORTABLE_SRCS)
# AArch64: boot/aarch64/ replaces the AArch32 start-up, MMU and exception
# handler; the rest of boot/ and every other source is shared.
BOOT32_ONLY   := boot/start.S boot/mmu.c boot/exceptions.c
TARGET64_SRCS := $(wildcard boot/aarch64/*.S boot/aarch64/*.c) \
                 $(filter-out $(BOOT32_ONLY),$(TARGET_SRCS))
HOSTLIB_SRCS  := $(wildcard lib/host/*.c)
SIM_SRCS      := $(wildcard sim/*.c)
# harness/: where the simulator's models meet the firmware's code (the
# simulated board built from platform/'s tables, the tests' set-ups).
HARNESS_SRCS  := $(wildcard harness/*.c)
SIM_CARD_TXT  := $(sort $(wildcard sim/profiles/*.txt))
SIM_HOST_TXT  := $(sort $(wildcard sim/hosts/*.txt))
TEST_SRCS     := $(wildcard tests/unit/test_*.c tests/sim/test_*.c)
TOOL_SRCS     := $(filter-out tools/sdbsim.c,$(wildcard tools/*.c))

TARGET_OBJS   := $(patsubst %,$(BT)/%.o,$(basename $(TARGET_SRCS)))
BT64 := $(B)/target64
TARGET64_OBJS := $(patsubst %,$(BT64)/%.o,$(basename $(TARGET64_SRCS)))
$(filter $(addprefix $(BT64)/,$(addsuffix /%,bench drivers/sd drivers/sdhci drivers/sdhost drivers/dma)),$(TARGET64_OBJS)): \
	TALIGN64 :=
PORTABLE_HOBJS:= $(patsubst %.c,$(BH)/obj/%.o,$(PORTABLE_SRCS))
HOSTLIB_HOBJS := $(patsubst %.c,$(BH)/obj/%.o,$(HOSTLIB_SRCS))
SIM_HOBJS     := $(patsubst %.c,$(BH)/obj/%.o,$(SIM_SRCS))
HARNESS_HOBJS := $(patsubst %.c,$(BH)/obj/%.o,$(HARNESS_SRCS))
TEST_BINS     := $(patsubst %.c,$(BH)/tests/%,$(notdir $(TEST_SRCS)))
HOSTPY_SRCS   := $(wildcard tools/sdbhost/*.py tools/sdbhost/db/*.py tools/sdbhost/templates/*)
HOSTPY        := $(patsubst tools/%,$(BH)/%,$(HOSTPY_SRCS))
TOOL_BINS     := $(patsubst tools/%.c,$(BH)/%,$(TOOL_SRCS)) $(BH)/sdbreport $(BH)/sdbcapture \
                 $(BH)/sdbdb \
                 $(BH)/sdbsim

# sdblinux (see its rules below)
SDBLINUX_SRCS := $(wildcard tools/sdblinux/*.c) \
                 $(filter-out bench/storage/write_guard.c,$(wildcard bench/storage/*.c)) \
                 lib/fmt.c lib/json.c lib/err.c lib/host/fd_read.c
SDBLINUX_BINS := $(B)/sdblinux/sdblinux-arm64 $(B)/sdblinux/sdblinux-armhf $(BH)/sdblinux

.PHONY: readme-sample screen-png bench-captures bench-qemu bench-queue bench-holdout bench-predict bench-au bench-confirm bench-mutations bench-linux bench-linux-commands sdblinux bench-sim bench-silicon all run test test-qemu test-qemu10 test-hw fixtures screenshot unit clean qemu-image \
        golden image run-image install uninstall fuzz fuzz-long fuzz-build soak-long
all: $(B)/gen/font8x16.bin $(B)/kernel.img $(B)/kernel.lst $(B)/kernel8.img $(B)/kernel8.lst $(B)/shim64.bin \
     $(B)/kernel_2712.img $(SDBLINUX_BINS) \
     $(TOOL_BINS) $(TEST_BINS)

# ---- target -----------------------------------------------------------------
$(BT)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(TCC) $(TCFLAGS) -MMD -MP -c $< -o $@

$(BT)/%.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	@$(TCC) $(TCFLAGS) -MMD -MP -c $< -o $@

$(B)/kernel.elf: $(TARGET_OBJS) linker/kernel.ld
	@echo "  LD      $@"
	@$(TCC) $(TCFLAGS) $(TLDFLAGS) $(TARGET_OBJS) $(TLIBS) -o $@

$(B)/kernel.img: $(B)/kernel.elf
	$(TOBJCOPY) -O binary $< $@

$(B)/kernel.lst: $(B)/kernel.elf
	$(TOBJDUMP) -d -S $< > $@

# ---- target, AArch64 (kernel8.img) ------------------------------------------
$(BT64)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC64    $<"
	@$(TCC64) $(TCFLAGS64) -MMD -MP -c $< -o $@

$(BT64)/%.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS64    $<"
	@$(TCC64) $(TCFLAGS64) -MMD -MP -c $< -o $@

$(B)/kernel8.elf: $(TARGET64_OBJS) linker/kernel8.ld
	@echo "  LD64    $@"
	@$(TCC64) $(TCFLAGS64) $(TLDFLAGS64) $(TARGET64_OBJS) -lgcc -o $@

$(B)/kernel8.img: $(B)/kernel8.elf
	$(TOBJCOPY64) -O binary $< $@

$(B)/kernel8.lst: $(B)/kernel8.elf
	$(TOBJDUMP64) -d -S $< > $@

# ---- target, AArch64 for the Pi 5 (kernel_2712.img) ---------------------------
# The screen font (lib/font.c) from a Linux console font (Debian's
# console-setup-linux, tools/install-deps.sh): tools/psf2font.py takes its
# printable ASCII glyphs; the .bin is the same bitmaps for the host-side
# rendering the screen tests compare with.
FONT_PSF ?= /usr/share/consolefonts/Lat15-TerminusBold16.psf.gz
$(B)/gen/font8x16.inc: tools/psf2font.py
	@mkdir -p $(dir $@)
	@echo "  FONT    $(FONT_PSF)"
	@$(PYTHON) tools/psf2font.py $(FONT_PSF) $@ $(B)/gen/font8x16.bin
$(B)/gen/font8x16.bin: $(B)/gen/font8x16.inc
$(BT)/lib/font.o $(BT64)/lib/font.o $(BT2712)/lib/font.o $(BH)/obj/lib/font.o: $(B)/gen/font8x16.inc

# The name the Pi 5 firmware loads first. The same sources and start-up as
# kernel8.img (one binary finds its board at run time), scheduled for the
# Cortex-A76 (-mtune only: the code stays ARMv8.0-A and also runs on a Pi 3/4).
# No emulator models a Pi 5: its platform code runs on the simulator only.
BT2712 := $(B)/target2712
TARGET2712_OBJS := $(patsubst %,$(BT2712)/%.o,$(basename $(TARGET64_SRCS)))
TUNE2712 := -mtune=cortex-a76
$(filter $(addprefix $(BT2712)/,$(addsuffix /%,bench drivers/sd drivers/sdhci drivers/dma)),$(TARGET2712_OBJS)): \
	TALIGN64 :=
$(BT2712)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC2712  $<"
	@$(TCC64) $(TCFLAGS64) $(TUNE2712) -MMD -MP -c $< -o $@

$(BT2712)/%.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS2712  $<"
	@$(TCC64) $(TCFLAGS64) $(TUNE2712) -MMD -MP -c $< -o $@

$(B)/kernel_2712.elf: $(TARGET2712_OBJS) linker/kernel8.ld
	@echo "  LD2712  $@"
	@$(TCC64) $(TCFLAGS64) $(TUNE2712) $(TLDFLAGS64:$(B)/kernel8.map=$(B)/kernel_2712.map) \
		$(TARGET2712_OBJS) -lgcc -o $@

$(B)/kernel_2712.img: $(B)/kernel_2712.elf
	$(TOBJCOPY64) -O binary $< $@

# QEMU only, not part of kernel.img: the AArch64 shim that starts kernel.img
# in AArch32 on raspi3b/raspi3ap/raspi4b (A64 source, the AArch64 toolchain).
$(B)/shim64.bin: qemu/shim/aarch64_shim.S
	@mkdir -p $(B)/shim
	$(TCC64) -c $< -o $(B)/shim/aarch64_shim.o
	$(TOBJCOPY64) -O binary -j .text $(B)/shim/aarch64_shim.o $@

# A build with a deliberate fault, to test the exception dump.
$(B)/fault/kernel.img: $(TARGET_SRCS) linker/kernel.ld $(B)/gen/font8x16.inc
	@mkdir -p $(B)/fault
	$(TCC) $(TCFLAGS) -DSDB_TEST_FAULT $(TLDFLAGS:$(B)/kernel.map=$(B)/fault/kernel.map) \
		$(TARGET_SRCS) $(TLIBS) -o $(B)/fault/kernel.elf
	$(TOBJCOPY) -O binary $(B)/fault/kernel.elf $@

$(B)/fault/kernel8.img: $(TARGET64_SRCS) linker/kernel8.ld $(B)/gen/font8x16.inc
	@mkdir -p $(B)/fault
	$(TCC64) $(TCFLAGS64) -DSDB_TEST_FAULT $(TLDFLAGS64:$(B)/kernel8.map=$(B)/fault/kernel8.map) \
		$(TARGET64_SRCS) -lgcc -o $(B)/fault/kernel8.elf
	$(TOBJCOPY64) -O binary $(B)/fault/kernel8.elf $@

$(B)/fault/kernel_2712.img: $(TARGET64_SRCS) linker/kernel8.ld $(B)/gen/font8x16.inc
	@mkdir -p $(B)/fault
	$(TCC64) $(TCFLAGS64) $(TUNE2712) -DSDB_TEST_FAULT \
		$(TLDFLAGS64:$(B)/kernel8.map=$(B)/fault/kernel_2712.map) \
		$(TARGET64_SRCS) -lgcc -o $(B)/fault/kernel_2712.elf
	$(TOBJCOPY64) -O binary $(B)/fault/kernel_2712.elf $@

# ---- host -------------------------------------------------------------------
$(BH)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $<"
	@$(HCC) $(HCFLAGS) -MMD -MP -c $< -o $@

$(BH)/libsdb.a: $(PORTABLE_HOBJS)
	@rm -f $@
	ar rcs $@ $^

$(BH)/libhost.a: $(HOSTLIB_HOBJS)
	@rm -f $@
	ar rcs $@ $^

$(BH)/libharness.a: $(HARNESS_HOBJS)
	@rm -f $@
	ar rcs $@ $^

$(BH)/libsim.a: $(SIM_HOBJS) $(BH)/obj/gen/sim_builtin.o $(BH)/obj/empty.o
	@rm -f $@
	ar rcs $@ $^

# The simulator's built-in card and host profiles: the text files as strings.
$(BH)/gen/sim_builtin.c: $(SIM_CARD_TXT) $(SIM_HOST_TXT) sim/embed.awk
	@mkdir -p $(dir $@)
	@echo "  EMBED   $@"
	@{ echo '/* generated from sim/profiles and sim/hosts by sim/embed.awk */'; \
	   awk -v sym=card -f sim/embed.awk $(SIM_CARD_TXT); \
	   awk -v sym=host -f sim/embed.awk $(SIM_HOST_TXT); } > $@.tmp && mv $@.tmp $@

$(BH)/obj/gen/sim_builtin.o: $(BH)/gen/sim_builtin.c
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $<"
	@$(HCC) $(HCFLAGS) -c $< -o $@

$(BH)/obj/empty.o:
	@mkdir -p $(dir $@)
	echo 'typedef int sdb_empty_unit;' | $(HCC) -x c -c - -o $@

# Host tools: portable code only, never the simulator.
$(BH)/%: tools/%.c $(BH)/libsdb.a $(BH)/libhost.a
	@mkdir -p $(dir $@)
	@echo "  HOSTLD  $@"
	@$(HCC) $(HCFLAGS) $< $(BH)/libsdb.a $(BH)/libhost.a $(HLDFLAGS) $(HLIBS) -o $@

# The simulator as a tool: the whole program against a simulated card. The
# engine's wl_begin/wl_do/wl_end (and wl_untimed_begin/end) are wrapped so that sdbsim knows each
# workload's window (its "truth" record), without a change to the firmware.
$(BH)/sdbsim: tools/sdbsim.c $(BH)/libsdb.a $(BH)/libsim.a $(BH)/libharness.a $(BH)/libhost.a
	@mkdir -p $(dir $@)
	@echo "  HOSTLD  $@"
	@$(HCC) $(HCFLAGS) $< -Wl,--wrap=wl_begin,--wrap=wl_do,--wrap=wl_end,--wrap=wl_report,--wrap=wl_untimed_begin,--wrap=wl_untimed_end -Wl,--start-group $(BH)/libharness.a $(BH)/libsim.a $(BH)/libsdb.a $(BH)/libhost.a -Wl,--end-group $(HLDFLAGS) $(HLIBS) -o $@

# Python host tools: installed next to the C ones, with their package
# (tools/sdbhost, its HTML templates included) beside them.
$(BH)/sdbhost/%: tools/sdbhost/%
	@mkdir -p $(dir $@)
	install -m 644 $< $@

$(BH)/sdbreport $(BH)/sdbcapture $(BH)/sdbdb: $(BH)/%: tools/%.py $(HOSTPY)
	@mkdir -p $(dir $@)
	install -m 755 $< $@

# Test programs: portable code + simulator + the check harness.
define test_rule
$(BH)/tests/$(notdir $(basename $(1))): $(1) $(BH)/libsdb.a $(BH)/libsim.a $(BH)/libharness.a $(BH)/libhost.a tests/unit/check_main.c tests/unit/check.h
	@mkdir -p $(BH)/tests
	@echo "  HOSTLD  $$@"
	@$(HCC) $(HCFLAGS) $(1) tests/unit/check_main.c -Wl,--start-group $(BH)/libharness.a $(BH)/libsim.a $(BH)/libsdb.a $(BH)/libhost.a -Wl,--end-group $(HLDFLAGS) $(HLIBS) -o $$@
endef
$(foreach t,$(TEST_SRCS),$(eval $(call test_rule,$(t))))

# ---- sdblinux: sdbench's workloads through Linux (tools/sdblinux) -----------
# A static Linux program for the Pi's own OS (armhf: 32-bit Raspberry Pi OS;
# arm64: the 64-bit one, and the Debian kernel under QEMU) and for the host
# (tests on image files). It links sdbench's test-area decision
# (bench/storage) but not the write guard, which sends through the card layer.
# 64-bit file offsets on armhf too: a card's blocks beyond 2 GiB (lx.h).
SDBLINUX_CFLAGS := -O2 -g -std=gnu11 -DSDB_HOST -D_FILE_OFFSET_BITS=64 $(WARN) -I. -static
$(B)/sdblinux/sdblinux-arm64: $(SDBLINUX_SRCS) tools/sdblinux/lx.h lib/host/fd_read.h
	@mkdir -p $(dir $@)
	@echo "  LXCC    $@"
	@aarch64-linux-gnu-gcc $(SDBLINUX_CFLAGS) $(SDBLINUX_SRCS) -lm -o $@
$(B)/sdblinux/sdblinux-armhf: $(SDBLINUX_SRCS) tools/sdblinux/lx.h lib/host/fd_read.h
	@mkdir -p $(dir $@)
	@echo "  LXCC    $@"
	@arm-linux-gnueabihf-gcc $(SDBLINUX_CFLAGS) $(SDBLINUX_SRCS) -lm -o $@
$(BH)/sdblinux: $(SDBLINUX_SRCS) tools/sdblinux/lx.h lib/host/fd_read.h
	@mkdir -p $(dir $@)
	@echo "  HOSTLD  $@"
	@$(HCC) $(HCFLAGS) $(SDBLINUX_SRCS) $(HLDFLAGS) $(HLIBS) -o $@
sdblinux: $(SDBLINUX_BINS)

# ---- fuzzing (tests/fuzz, libFuzzer through clang) --------------------------
# The parsers of what sdbench reads but did not write, built with clang's
# libFuzzer, ASan and UBSan. Each target replays its committed corpus
# (tests/fuzz/corpus/NAME: seeds and every crash found) and then fuzzes for
# FUZZ_SECONDS; new inputs go to build/fuzz/corpus/NAME, never to the repository.
# JOBS targets fuzz at a time, each on its own core for its FUZZ_SECONDS.
FCC          ?= clang
FUZZ_SECONDS ?= 20
FUZZ_TARGETS := fuzz_storage fuzz_fat fuzz_config fuzz_sdregs
BF           := $(B)/fuzz
FUZZ_CFLAGS  := -O1 -g -std=gnu11 -DSDB_HOST -I. -fno-omit-frame-pointer \
                -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FUZZ_LIB_SRCS := $(filter-out bench/storage/write_guard.c,$(wildcard bench/storage/*.c)) \
                 lib/fmt.c lib/json.c lib/err.c drivers/sd/sd_regs.c
FUZZ_LIB_OBJS := $(patsubst %.c,$(BF)/obj/%.o,$(FUZZ_LIB_SRCS))

$(BF)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $<"
	@$(FCC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

$(BF)/%: tests/fuzz/%.c tests/fuzz/fuzz_image.h $(FUZZ_LIB_OBJS)
	@echo "  FUZZLD  $@"
	@$(FCC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_LIB_OBJS) -o $@

.SECONDARY: $(FUZZ_LIB_OBJS)
fuzz-build: $(addprefix $(BF)/,$(FUZZ_TARGETS))

fuzz: fuzz-build
	@FUZZ_JOBS=$(JOBS) tests/fuzz/run.sh $(BF) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-long: fuzz-build
	@FUZZ_JOBS=$(JOBS) tests/fuzz/run.sh $(BF) $(or $(FUZZ_LONG_SECONDS),600) $(FUZZ_TARGETS)

# The fault soak (tests/sim/test_soak.c) with more seeds than make test runs.
soak-long: $(BH)/tests/test_soak
	SDB_SOAK_SEEDS=$(or $(SOAK_SEEDS),6) $(BH)/tests/test_soak

# ---- running ----------------------------------------------------------------
# KERNEL=build/kernel8.img: the AArch64 image (raspi3b, raspi3ap, raspi4b).
run: $(B)/kernel.img $(B)/kernel8.img $(B)/shim64.bin $(TOOL_BINS)
	$(if $(KERNEL),SDB_KERNEL=$(KERNEL) )qemu/run.sh $(MACHINE)

# ---- a card (tools/sdbcard.py) ------------------------------------------------
IMAGE ?= $(B)/sdbench.img
image: $(B)/kernel.img $(B)/kernel8.img $(B)/kernel_2712.img $(TOOL_BINS)
	$(PYTHON) tools/sdbcard.py image -o "$(IMAGE)" --build $(B) $(if $(FIRMWARE),--firmware "$(FIRMWARE)")

# A card image that exists is booted as it is (its firmware files, its
# sdbench.txt); one that does not, or FIRMWARE=, is made first.
run-image: $(B)/shim64.bin
	@if [ -n "$(FIRMWARE)" ] || [ ! -f "$(IMAGE)" ]; then \
		$(MAKE) --no-print-directory image IMAGE="$(IMAGE)" $(if $(FIRMWARE),FIRMWARE="$(FIRMWARE)"); \
	else \
		echo "make run-image: $(IMAGE) as it is (make image rebuilds it from this build)"; \
	fi
	SDB_IMAGE="$(IMAGE)" qemu/run.sh $(MACHINE)

install: $(B)/kernel.img $(B)/kernel8.img $(B)/kernel_2712.img
	@test -n "$(BOOT)" || { echo 'make install: say where the boot partition is mounted, e.g. make install BOOT=/media/$$USER/bootfs' >&2; exit 2; }
	$(PYTHON) tools/sdbcard.py install --boot "$(BOOT)" --build $(B)

uninstall:
	@test -n "$(BOOT)" || { echo 'make uninstall: say where the boot partition is mounted, e.g. make uninstall BOOT=/media/$$USER/bootfs' >&2; exit 2; }
	$(PYTHON) tools/sdbcard.py uninstall --boot "$(BOOT)"

unit: $(TEST_BINS)
	@set -e; for t in $(TEST_BINS); do echo "== $$t"; $$t; done

# Every test under the system QEMU (7.2 on Debian 12), then the QEMU tests
# under QEMU 10, which adds raspi4b. On a system whose QEMU already has
# raspi4b (Debian 13) the first pass is the QEMU 10 pass.
QEMU10 ?= yes
# Tests run on every core (python3-pytest-xdist): most of the time is QEMU,
# one process per test. JOBS=1 runs them one at a time.
JOBS ?= $(shell nproc)
PYTEST_JOBS := $(if $(filter-out 1,$(JOBS)),-n $(JOBS),)
test: all $(B)/fault/kernel.img $(B)/fault/kernel8.img $(B)/fault/kernel_2712.img
	@$(MAKE) --no-print-directory fuzz
	SDB_QEMU=system $(PYTHON) -m pytest -q $(PYTEST_JOBS) tests
	@$(MAKE) --no-print-directory test-qemu10

test-qemu: all $(B)/fault/kernel.img $(B)/fault/kernel8.img $(B)/fault/kernel_2712.img
	$(PYTHON) -m pytest -q tests/qemu

test-qemu10: all $(B)/fault/kernel.img $(B)/fault/kernel8.img $(B)/fault/kernel_2712.img
ifeq ($(QEMU10),no)
	@echo "QEMU 10 pass skipped (QEMU10=no)"
else
	@dir=$$(tools/fetch-qemu10.sh) || { echo "make: no QEMU 10 for the second QEMU pass (QEMU10=no skips it)" >&2; exit 1; }; \
	if [ "$$dir" = "$$(dirname "$$(command -v qemu-system-aarch64)")" ]; then \
		echo "the system QEMU has raspi4b: the first pass covered QEMU 10"; \
	else \
		echo "SDB_QEMU=10 $(PYTHON) -m pytest -q $(PYTEST_JOBS) tests/qemu"; \
		SDB_QEMU=10 $(PYTHON) -m pytest -q $(PYTEST_JOBS) tests/qemu; \
	fi
endif

# Rewrite the behaviour baselines (tests/golden) after a deliberate change.
golden: all
	$(PYTHON) tests/golden/golden.py --regen

# The hardware-in-the-loop checks (tests/hw) against a Pi on a serial port:
# start it, then power the Pi on (its card holds kernel.img). PORT may be a
# pseudo-terminal: tests/test_hw_pty.py runs this target against QEMU.
test-hw: $(BH)/sdbcapture $(BH)/sdbreport
	@test -n "$(PORT)" || { echo "usage: make test-hw PORT=/dev/ttyUSB0 [BAUD=115200]" >&2; exit 2; }
	SDB_HW_PORT=$(PORT) SDB_HW_BAUD=$(or $(BAUD),115200) $(PYTHON) -m pytest -q -rs -p no:cacheprovider tests/hw

# Console logs of real QEMU runs for the host tools' tests (tests/data/).
fixtures: $(B)/kernel.img $(B)/fault/kernel.img $(BH)/sdbsim
	tests/data/regen.sh

# The HDMI screen at the end of a quick run under QEMU (raspi2b), through
# QEMU's monitor (qemu/screendump.py), into build/screen.png; DOC=docs/screen.png
# rewrites the picture of docs/screen.md.
SCREEN_PNG = $(or $(DOC),$(B)/screen.png)
screen-png: $(B)/kernel.img
	$(PYTHON) qemu/screendump.py -o $(SCREEN_PNG)
	@echo "make screen-png: $(SCREEN_PNG)"

# The report screenshot in the README, from the committed log of make run
# (tests/data/qemu-raspi2b-run.log, make fixtures).

# The README's sample output, cut from tests/data/qemu-raspi2b-run.log
# (make fixtures: make run with today's firmware).
readme-sample:
	$(PYTHON) tests/readme_sample.py --write README.md

screenshot: $(BH)/sdbreport
	$(PYTHON) tests/report_browser.py --screenshot docs/report-screenshot.png \
		tests/data/qemu-raspi2b-run.log

# Accuracy of the card / bus / host split and of the verdicts against the
# simulator's wire truth (the engine's workloads, the quick suite on
# shipped and on generated pairs), and the full suite's duration on
# simulated cards (figures for the docs; takes several minutes).
bench-sim: all
	$(PYTHON) sim/bench_sim.py

# The generated pairs under every SDHCI Block Count behaviour the simulator
# models (docs/silicon.md): part 5 of bench-sim alone.
bench-silicon: all
	$(PYTHON) sim/bench_sim.py --variants

# The split and the verdicts on generated pairs of a seed range chosen once,
# at the end of a piece of work, and never used while developing it (a
# hold-out): FIRST=<first seed> N=<pairs, default 100>. The floors of
# tests/sim/test_bench_accuracy.c apply to what ran: it fails below them.
bench-holdout: $(BH)/tests/test_bench_accuracy
	@test -n "$(FIRST)" || { echo "bench-holdout: give FIRST=<first seed> (and N=<pairs>)"; exit 2; }
	SIM_ACCURACY_ONLY=gen-host SIM_ACCURACY_GEN_FIRST=$(FIRST) \
		SIM_ACCURACY_GEN=$(or $(N),100) $(BH)/tests/test_bench_accuracy

# The shares of the command queue's workload at every depth against the
# simulator's truth, on the first N generated pairs (from seed FIRST,
# default 1) whose card has a command queue (tests/sim/test_queue_shares.c;
# make test runs 3). Seeds from 9000 are held out: the test refuses them.
bench-queue: $(BH)/tests/test_queue_shares
	SIM_QSHARES_FIRST=$(or $(FIRST),1) SIM_QSHARES_PAIRS=$(or $(N),60) \
		$(BH)/tests/test_queue_shares

# The erase-block size the alignment test finds and the open AUs the
# open-AU step finds, on 200 generated cards against the cards' own
# geometry (tests/sim/test_bench_au.c; make test runs its first 30).
bench-au: $(BH)/tests/test_bench_au
	SIM_AU_GEN=$(or $(N),200) $(BH)/tests/test_bench_au

# The counterfactual checks of each verdict (bench/engine/confirm.c) on
# the shipped pairs and N generated pairs (default 100, seeds 1..N): the
# checks that ran, the contradictions of unbroken splits, and of splits
# broken by hand (tests/sim/test_confirm.c; make test runs 12 pairs); then
# the same test (make test's pairs) on each split broken in the code (the
# bus model x1.1, the simulated SDHCI's divider off by one:
# sim/mutations.py), its counts per mutation. (A Block Count stale is no
# longer a broken split: the controller probe refuses the look and the
# reads get no diagnosis; test_silicon catches that mutation.)
CONFIRM_MUTATIONS = bus-model-x1.1,sdhci-divider-off-by-one
bench-confirm: $(BH)/tests/test_confirm
	SIM_CONFIRM_GEN=$(or $(N),100) $(BH)/tests/test_confirm
	$(PYTHON) sim/mutations.py --only $(CONFIRM_MUTATIONS) --tests test_confirm

# Each mutation of sim/mutations.py (the bus model 10% too long, the
# clock-paced booking removed, the overlap rule removed, the verdict rule
# naming the second part, a validity check off, the tick-wrap accounting
# reverted, the write guard's limits loosened,
# --predict's ceiling cap removed) built in a copy of the tree and run
# against the test that must catch it, beside the unmutated baseline: the
# misses, the worst, the floors that fail (several minutes).
bench-mutations:
	$(PYTHON) sim/mutations.py

# How often sdbreport --predict gets 25 -> 50 MHz right (within 10% both
# ways, an upper bound too) on simulated card/host pairs: shipped cards on
# three hosts and generated pairs (sim/predict_pairs.py; about 20 minutes
# on 2 cores).
bench-predict: all
	$(PYTHON) sim/predict_pairs.py

# Real cards on the wire: the public sigrok-dumps SD-mode captures decoded
# with sigrok-cli (apt-get install sigrok-cli), their N_CR / N_ID / N_RC and
# response lengths beside the simulator's and the spec's, ACMD41 busy time
# beside the firmware's deadline, CID/CSD/SCR/SSR through sdreg. Captures in
# $(SDB_SIGROK_DUMPS) or build/sigrok-dumps (docs/captures.md).
bench-captures: $(BH)/sdreg
	@command -v sigrok-cli >/dev/null || { echo "bench-captures: sigrok-cli missing: apt-get install sigrok-cli"; exit 2; }
	$(PYTHON) sim/captures.py

# What a read request costs the CPU, in guest instructions under QEMU
# -icount (suite = hostcost; qemu/bench_qemu.py). A benchmark, not a test.
bench-qemu: $(B)/kernel.img $(B)/kernel8.img $(B)/shim64.bin
	$(PYTHON) qemu/bench_qemu.py $(if $(DOC),--doc $(DOC))

# The same requests through Debian's arm64 kernel under QEMU (downloaded
# into build/linux by tools/fetch-linux-arm64.sh), next to sdbench's
# hostcost figures (qemu/linux/bench_linux.py). A benchmark, not a test.
bench-linux: $(B)/kernel8.img $(B)/sdblinux/sdblinux-arm64
	$(PYTHON) qemu/linux/bench_linux.py $(if $(DOC),--doc $(DOC))

# The commands each sends to the card, from QEMU's SD trace events, every
# difference explained (qemu/linux/compare_commands.py).
bench-linux-commands: $(B)/kernel8.img $(B)/sdblinux/sdblinux-arm64
	$(PYTHON) qemu/linux/compare_commands.py $(if $(DOC),--doc $(DOC))

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
