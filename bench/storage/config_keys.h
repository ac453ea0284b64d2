/*
 * config_keys.h - every key of sdbench.txt, one line each (docs/config.md
 * describes them for users; keep both in step).
 *
 *   CONFIG_KEY(ID, "name", type, "default", min, max, "choices")
 *
 * ID becomes CFG_<ID> for the typed getters in config.h. "default" is parsed
 * like a value from the file ("" = no default: the getters report "not set"
 * and the caller decides). min/max bound numbers (sizes in bytes, clock in
 * Hz); for CFG_T_LIST max bounds each item's block count. choices is the
 * "a|b|c" list of a CFG_T_ENUM, NULL for other types.
 *
 * Included by config.h and config.c only (an X-macro: no include guard).
 */
CONFIG_KEY(SUITE, "suite", CFG_T_ENUM, "", 0, 0, "quick|full|selftest|hostcost|none")
CONFIG_KEY(TEST_AREA, "test_area", CFG_T_RANGE, "", 0, 0, NULL)
CONFIG_KEY(SPAN, "span", CFG_T_SIZE, "256M", 4096, 0xFFFFFFFFull * 512, NULL)
CONFIG_KEY(WRITE_TESTS, "write_tests", CFG_T_BOOL, "on", 0, 1, NULL)
CONFIG_KEY(VERIFY, "verify", CFG_T_BOOL, "on", 0, 1, NULL)
CONFIG_KEY(MAX_CLOCK_HZ, "max_clock_hz", CFG_T_HZ, "", 100000, 208000000, NULL)
CONFIG_KEY(SEED, "seed", CFG_T_UINT, "", 0, 0xFFFFFFFFull, NULL)
CONFIG_KEY(SELFTEST_LBAS, "selftest_lbas", CFG_T_LIST, "", 0, 2048, NULL)
CONFIG_KEY(SELFTEST_WRITE, "selftest_write", CFG_T_RANGE, "", 0, 0, NULL)
CONFIG_KEY(END, "end", CFG_T_ENUM, "halt", 0, 0, "halt|console|repeat")
CONFIG_KEY(HOST, "host", CFG_T_ENUM, "auto", 0, 0, "auto|emmc|sdhost|emmc2|sdio1")
CONFIG_KEY(DATA_PATH, "data_path", CFG_T_ENUM, "auto", 0, 0, "auto|pio|dma")
CONFIG_KEY(DMA_PIO_BLOCKS, "dma_pio_blocks", CFG_T_UINT, "", 0, 65535, NULL)
CONFIG_KEY(BUS_MODE, "bus_mode", CFG_T_ENUM, "auto", 0, 0, "auto|ds|hs|sdr12|sdr25|sdr50|ddr50|sdr104")
CONFIG_KEY(COMPARE_HOSTS, "compare_hosts", CFG_T_BOOL, "off", 0, 1, NULL)
CONFIG_KEY(RESULTS_FILE, "results_file", CFG_T_BOOL, "on", 0, 1, NULL)
CONFIG_KEY(CONSOLE_WAIT, "console_wait", CFG_T_UINT, "3", 0, 60, NULL)
CONFIG_KEY(CONSOLE_IDLE, "console_idle", CFG_T_UINT, "60", 0, 86400, NULL)
CONFIG_KEY(LED, "led", CFG_T_BOOL, "on", 0, 1, NULL)
CONFIG_KEY(CONFIRM, "confirm", CFG_T_BOOL, "on", 0, 1, NULL)
