"""Host-side helpers of sdbench's PC tools (sdbreport, sdbcapture, sdbdb).

records  - robust reading of console logs into runs of records
fmt      - number, size and time formatting shared by the reports
text     - the text report and the text comparison
charts   - matplotlib figures (python3-matplotlib)
html     - the self-contained HTML report
csvout   - one CSV file per record type
capture  - reading the serial console (python3-serial)
multicapture - several serial ports at once, one log per run, into the database
db       - the card database (SQLite, or PostgreSQL through python3-psycopg2)

Only the "@ " record lines of a log are read (docs/records.md); the text
for people is never parsed.
"""
