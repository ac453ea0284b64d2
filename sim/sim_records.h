/*
 * sim_records.h - reading the "@ " record lines a simulated run printed
 * (docs/records.md), for the simulator tests that check records.
 */
#ifndef SDB_TESTS_SIM_RECORDS_H
#define SDB_TESTS_SIM_RECORDS_H

/* The "@ " line of the last record of this type in out that contains t1
 * and t2 (either may be NULL), or NULL. */
const char *simrec_last(const char *out, const char *type, const char *t1, const char *t2);

/* A number (true/false as 1/0) of the record line; NAN when null or missing. */
double simrec_num(const char *line, const char *key);

#endif
